/*
 * A ROS 2 node as rmw_cyclonedds puts it on the wire, on the plain Cyclone DDS 0.10.2 C
 * API: it reads /clock and /tf and calls simulation_interfaces services of a simulator
 * (ddsim), printing one JSON line per result on stdout.
 *
 *   cyclone-rosclient [-domain N] [-prefix /gzserver] [-filter REGEX] [-timeout SEC]
 *                     [-repeat N]
 *
 * With -repeat N, get_entities is called N times and a line with the round trips' p50
 * and p99 in microseconds follows its reply (a benchmark of the server).
 *
 * What rmw_cyclonedds does, from its sources (rmw_cyclonedds_cpp/src rmw_node.cpp,
 * serdata.hpp, Serialization.cpp): topic /a is "rt/a", service /s is "rq/sRequest" and
 * "rr/sReply"; types are pkg::msg::dds_::Name_ and pkg::srv::dds_::Name_Request_ /
 * _Response_, XCDR1, no XTypes type information; RELIABLE, VOLATILE, KEEP_LAST 10; a
 * request and its reply start with a 16-byte header (the client's guid, a sequence
 * number) that the server copies into the reply; a client takes every reply on rr/ and
 * keeps those with its own guid and sequence number.
 *
 * Exit status: 0 everything answered, 1 something did not arrive within -timeout,
 * 2 bad command line, 3 a DDS call failed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dds/dds.h"
#include "ros.h"
#include "rmw_cyclonedds.h"

enum { EXIT_TIMEOUT = 1, EXIT_USAGE = 2, EXIT_DDS = 3 };

/* The header every request and reply struct of rmw_cyclonedds.idl starts with. */
struct header {
  uint64_t guid;
  int64_t seq;
};

struct args {
  int domain;
  const char *prefix;
  const char *filter;
  double timeout;
  int repeat;
};

static dds_time_t deadline;

static int failed(const char *what, dds_return_t rc)
{
  fprintf(stderr, "cyclone-rosclient: %s: %s\n", what, dds_strretcode(rc));
  return EXIT_DDS;
}

static int timed_out(const char *what)
{
  fprintf(stderr, "cyclone-rosclient: %s: nothing within the timeout\n", what);
  return EXIT_TIMEOUT;
}

/* Prints s as a JSON string. */
static void json_string(const char *s)
{
  putchar('"');
  for (; s != NULL && *s != '\0'; s++) {
    if (*s == '"' || *s == '\\')
      printf("\\%c", *s);
    else if ((unsigned char)*s < 0x20)
      printf("\\u%04x", *s);
    else
      putchar(*s);
  }
  putchar('"');
}

static dds_qos_t *ros_qos(void)
{
  dds_qos_t *q = dds_create_qos();
  dds_qset_reliability(q, DDS_RELIABILITY_RELIABLE, DDS_SECS(1));
  dds_qset_durability(q, DDS_DURABILITY_VOLATILE);
  dds_qset_history(q, DDS_HISTORY_KEEP_LAST, 10);
  return q;
}

/* client_id sets in q the USER_DATA of a new client's two endpoints as rmw_cyclonedds
 * does (rmw_node.cpp get_unique_csid, csid_to_string): "clientid=ID;", ID the
 * participant's GUID prefix and a big-endian counter, the first octet in hexadecimal
 * padded with a space to two characters, the others in hexadecimal, dot-separated. */
static void client_id(dds_entity_t pp, dds_qos_t *q)
{
  static uint32_t counter;
  dds_guid_t g;
  unsigned char id[16];
  char text[128];
  dds_get_guid(pp, &g);
  memcpy(id, g.v, 12);
  counter++;
  for (int i = 0; i < 4; i++)
    id[12 + i] = (unsigned char)(counter >> (24 - 8 * i));
  int n = snprintf(text, sizeof text, "clientid=%2x", id[0]);
  for (int i = 1; i < 16; i++)
    n += snprintf(text + n, sizeof text - (size_t)n, ".%x", id[i]);
  snprintf(text + n, sizeof text - (size_t)n, ";");
  dds_qset_userdata(q, text, strlen(text));
}

/* service_id returns the serviceid= value of the USER_DATA of the endpoint h matched by
 * e (a writer's reader when reader is 0, else a reader's writer) in buf, or "" when it
 * has none. */
static const char *service_id(dds_entity_t e, dds_instance_handle_t h, int reader, char *buf, size_t size)
{
  dds_builtintopic_endpoint_t *d = reader ? dds_get_matched_publication_data(e, h)
                                          : dds_get_matched_subscription_data(e, h);
  buf[0] = 0;
  if (d == NULL)
    return buf;
  void *ud;
  size_t sz;
  if (dds_qget_userdata(d->qos, &ud, &sz) && ud != NULL) {
    const char *v = strstr((const char *)ud, "serviceid=");
    if (v != NULL) {
      v += strlen("serviceid=");
      size_t k = strcspn(v, ";");
      if (k < size) {
        memcpy(buf, v, k);
        buf[k] = 0;
      }
    }
    dds_free(ud);
  }
  dds_builtintopic_free_endpoint(d);
  return buf;
}

/* service_ready says whether the client's endpoints match one service, as
 * rmw_cyclonedds's rmw_service_server_is_available decides: a matched reply writer
 * and a matched request reader with the same service id (or without ids). */
static int service_ready(dds_entity_t w, dds_entity_t r)
{
  dds_instance_handle_t rds[16], wrs[16];
  dds_return_t nr = dds_get_matched_subscriptions(w, rds, 16);
  dds_return_t nw = dds_get_matched_publications(r, wrs, 16);
  char a[128], b[128];
  for (dds_return_t i = 0; i < nr && i < 16; i++)
    for (dds_return_t j = 0; j < nw && j < 16; j++)
      if (strcmp(service_id(w, rds[i], 0, a, sizeof a), service_id(r, wrs[j], 1, b, sizeof b)) == 0)
        return 1;
  return 0;
}

/* renamed returns a copy of d registered under another type name: the structs with the
 * header are, on the wire, the ROS 2 request and reply types. */
static dds_topic_descriptor_t *renamed(const dds_topic_descriptor_t *d, const char *name)
{
  dds_topic_descriptor_t copy = {
    .m_size = d->m_size, .m_align = d->m_align, .m_flagset = d->m_flagset, .m_nkeys = d->m_nkeys,
    .m_typename = name, .m_keys = d->m_keys, .m_nops = d->m_nops, .m_ops = d->m_ops,
    .m_meta = d->m_meta, .type_information = d->type_information, .type_mapping = d->type_mapping,
    .restrict_data_representation = d->restrict_data_representation,
  };
  dds_topic_descriptor_t *p = malloc(sizeof *p);
  if (p != NULL)
    memcpy(p, &copy, sizeof *p);
  return p;
}

struct service {
  const char *name;                 /* e.g. get_entities */
  const dds_topic_descriptor_t *rq; /* header + request */
  const char *rq_type;
  const dds_topic_descriptor_t *rr; /* header + reply */
  const char *rr_type;
};

static int cmp_time(const void *x, const void *y)
{
  dds_duration_t a = *(const dds_duration_t *)x, b = *(const dds_duration_t *)y;
  return (a > b) - (a < b);
}

/* exchange writes req with the next sequence number and waits for the reply to it, which
 * it hands to print when print is not NULL. */
static int exchange(dds_entity_t w, dds_entity_t r, dds_entity_t ws, const char *name, void *req,
                    void (*print)(const void *reply))
{
  static int64_t seq;
  struct header *h = req;
  dds_instance_handle_t ih;
  dds_get_instance_handle(w, &ih);
  h->guid = ih;
  h->seq = ++seq;
  dds_return_t rc = dds_write(w, req);
  if (rc < 0)
    return failed("write request", rc);
  for (;;) {
    void *buf[1] = {NULL};
    dds_sample_info_t info;
    rc = dds_take(r, buf, &info, 1, 1);
    if (rc < 0)
      return failed("take reply", rc);
    if (rc > 0) {
      const struct header *rh = buf[0];
      int mine = info.valid_data && rh->guid == h->guid && rh->seq == h->seq;
      if (mine && print != NULL)
        print(buf[0]);
      dds_return_loan(r, buf, rc);
      if (mine)
        return 0;
      continue;
    }
    if (dds_time() > deadline)
      return timed_out(name);
    (void)dds_waitset_wait(ws, NULL, 0, DDS_MSECS(100)); /* until the reader has data */
  }
}

/* call sends req (a struct starting with struct header) to the service and waits for its
 * reply, which it hands to print; with repeat > 1 it then calls repeat times more and
 * prints the round trips' p50 and p99. */
static int call(dds_entity_t pp, const struct args *a, const struct service *s, void *req,
                void (*print)(const void *reply), int repeat)
{
  char name[512];
  dds_topic_descriptor_t *rqd = renamed(s->rq, s->rq_type), *rrd = renamed(s->rr, s->rr_type);
  if (rqd == NULL || rrd == NULL)
    return failed("malloc", DDS_RETCODE_OUT_OF_RESOURCES);
  snprintf(name, sizeof name, "rq%s/%sRequest", a->prefix, s->name);
  dds_entity_t rqt = dds_create_topic(pp, rqd, name, NULL, NULL);
  snprintf(name, sizeof name, "rr%s/%sReply", a->prefix, s->name);
  dds_entity_t rrt = dds_create_topic(pp, rrd, name, NULL, NULL);
  if (rqt < 0 || rrt < 0)
    return failed("create topic", rqt < 0 ? rqt : rrt);
  dds_qos_t *q = ros_qos();
  client_id(pp, q);
  dds_entity_t w = dds_create_writer(pp, rqt, q, NULL);
  dds_entity_t r = dds_create_reader(pp, rrt, q, NULL);
  dds_delete_qos(q);
  if (w < 0 || r < 0)
    return failed("create writer/reader", w < 0 ? w : r);

  dds_entity_t ws = dds_create_waitset(pp);
  if (ws < 0)
    return failed("create waitset", ws);
  dds_set_status_mask(r, DDS_DATA_AVAILABLE_STATUS);
  dds_waitset_attach(ws, r, r);

  /* A client sees the service when both of its endpoints match the server's. */
  for (;;) {
    if (service_ready(w, r))
      break;
    if (dds_time() > deadline)
      return timed_out(s->name);
    dds_sleepfor(DDS_MSECS(10));
  }

  int rc = exchange(w, r, ws, s->name, req, print);
  if (rc == 0 && repeat > 1) {
    dds_duration_t *rtt = malloc(sizeof *rtt * (size_t)repeat);
    if (rtt == NULL)
      return failed("malloc", DDS_RETCODE_OUT_OF_RESOURCES);
    for (int i = 0; i < repeat && rc == 0; i++) {
      dds_time_t t0 = dds_time();
      rc = exchange(w, r, ws, s->name, req, NULL);
      rtt[i] = dds_time() - t0;
    }
    if (rc == 0) {
      qsort(rtt, (size_t)repeat, sizeof *rtt, cmp_time);
      printf("{\"call\":\"%s\",\"repeat\":%d,\"p50_us\":%.1f,\"p99_us\":%.1f}\n", s->name, repeat,
             (double)rtt[repeat / 2] / 1e3, (double)rtt[repeat * 99 / 100] / 1e3);
    }
    free(rtt);
  }
  if (rc != 0)
    return rc;
  dds_delete(ws);
  dds_delete(w);
  dds_delete(r);
  dds_delete(rqt);
  dds_delete(rrt);
  free(rqd);
  free(rrd);
  return 0;
}

static void print_result(const simulation_interfaces_msg_dds__Result_ *r)
{
  printf("\"result\":%u,\"error_message\":", r->result_);
  json_string(r->error_message_);
}

static void print_entities(const void *p)
{
  const rmw_cyclonedds_GetEntities_Response *rep = p;
  printf("{\"call\":\"get_entities\",");
  print_result(&rep->body.result_);
  printf(",\"entities\":[");
  for (uint32_t i = 0; i < rep->body.entities_._length; i++) {
    if (i > 0)
      putchar(',');
    json_string(rep->body.entities_._buffer[i]);
  }
  printf("]}\n");
}

static void print_get_state(const void *p)
{
  const rmw_cyclonedds_GetSimulationState_Response *rep = p;
  printf("{\"call\":\"get_simulation_state\",\"state\":%u,", rep->body.state_.state_);
  print_result(&rep->body.result_);
  printf("}\n");
}

static void print_set_state(const void *p)
{
  const rmw_cyclonedds_SetSimulationState_Response *rep = p;
  printf("{\"call\":\"set_simulation_state\",");
  print_result(&rep->body.result_);
  printf("}\n");
}

/* first waits for the first valid sample of the ROS 2 topic name and hands it to print. */
static int first(dds_entity_t pp, const dds_topic_descriptor_t *d, const char *name,
                 void (*print)(const void *sample))
{
  char fq[512];
  snprintf(fq, sizeof fq, "rt%s", name);
  dds_entity_t t = dds_create_topic(pp, d, fq, NULL, NULL);
  if (t < 0)
    return failed("create topic", t);
  dds_qos_t *q = ros_qos();
  dds_entity_t r = dds_create_reader(pp, t, q, NULL);
  dds_delete_qos(q);
  if (r < 0)
    return failed("create reader", r);
  for (;;) {
    void *buf[1] = {NULL};
    dds_sample_info_t info;
    dds_return_t rc = dds_take(r, buf, &info, 1, 1);
    if (rc < 0)
      return failed("take", rc);
    if (rc > 0) {
      int ok = info.valid_data;
      if (ok)
        print(buf[0]);
      dds_return_loan(r, buf, rc);
      if (ok)
        break;
      continue;
    }
    if (dds_time() > deadline)
      return timed_out(name);
    dds_sleepfor(DDS_MSECS(5));
  }
  dds_delete(r);
  return 0;
}

static void print_clock(const void *p)
{
  const rosgraph_msgs_msg_dds__Clock_ *c = p;
  printf("{\"topic\":\"/clock\",\"sec\":%d,\"nanosec\":%u}\n", c->clock_.sec_, c->clock_.nanosec_);
}

static void print_tf(const void *p)
{
  const tf2_msgs_msg_dds__TFMessage_ *m = p;
  printf("{\"topic\":\"/tf\",\"transforms\":%u,\"frames\":[", m->transforms_._length);
  for (uint32_t i = 0; i < m->transforms_._length; i++) {
    const geometry_msgs_msg_dds__TransformStamped_ *ts = &m->transforms_._buffer[i];
    printf("%s{\"parent\":", i > 0 ? "," : "");
    json_string(ts->header_.frame_id_);
    printf(",\"child\":");
    json_string(ts->child_frame_id_);
    printf("}");
  }
  printf("]}\n");
}

static int parse(int argc, char **argv, struct args *a)
{
  *a = (struct args){.domain = 0, .prefix = "/gzserver", .filter = "", .timeout = 20, .repeat = 1};
  for (int i = 1; i < argc; i++) {
    if (i + 1 >= argc) {
      fprintf(stderr, "cyclone-rosclient: %s needs a value\n", argv[i]);
      return EXIT_USAGE;
    }
    const char *v = argv[++i];
    if (strcmp(argv[i - 1], "-domain") == 0)
      a->domain = atoi(v);
    else if (strcmp(argv[i - 1], "-prefix") == 0)
      a->prefix = v;
    else if (strcmp(argv[i - 1], "-filter") == 0)
      a->filter = v;
    else if (strcmp(argv[i - 1], "-timeout") == 0)
      a->timeout = atof(v);
    else if (strcmp(argv[i - 1], "-repeat") == 0)
      a->repeat = atoi(v);
    else {
      fprintf(stderr, "cyclone-rosclient: unknown flag %s\n", argv[i - 1]);
      return EXIT_USAGE;
    }
  }
  return 0;
}

int main(int argc, char **argv)
{
  struct args a;
  int rc = parse(argc, argv, &a);
  if (rc != 0)
    return rc;
  deadline = dds_time() + (dds_duration_t)(a.timeout * 1e9);
  dds_entity_t pp = dds_create_participant((dds_domainid_t)a.domain, NULL, NULL);
  if (pp < 0)
    return failed("create participant", pp);

  static const struct service entities = {
    "get_entities", &rmw_cyclonedds_GetEntities_Request_desc,
    "simulation_interfaces::srv::dds_::GetEntities_Request_", &rmw_cyclonedds_GetEntities_Response_desc,
    "simulation_interfaces::srv::dds_::GetEntities_Response_"};
  static const struct service get_state = {
    "get_simulation_state", &rmw_cyclonedds_GetSimulationState_Request_desc,
    "simulation_interfaces::srv::dds_::GetSimulationState_Request_",
    &rmw_cyclonedds_GetSimulationState_Response_desc,
    "simulation_interfaces::srv::dds_::GetSimulationState_Response_"};
  static const struct service set_state = {
    "set_simulation_state", &rmw_cyclonedds_SetSimulationState_Request_desc,
    "simulation_interfaces::srv::dds_::SetSimulationState_Request_",
    &rmw_cyclonedds_SetSimulationState_Response_desc,
    "simulation_interfaces::srv::dds_::SetSimulationState_Response_"};

  rmw_cyclonedds_GetEntities_Request eq;
  memset(&eq, 0, sizeof eq);
  eq.body.filters_.filter_ = (char *)a.filter;
  rmw_cyclonedds_GetSimulationState_Request gq;
  memset(&gq, 0, sizeof gq);
  rmw_cyclonedds_SetSimulationState_Request sq;
  memset(&sq, 0, sizeof sq);
  sq.body.state_.state_ = 2; /* SimulationState.STATE_PAUSED */

  if ((rc = first(pp, &rosgraph_msgs_msg_dds__Clock__desc, "/clock", print_clock)) != 0 ||
      (rc = first(pp, &tf2_msgs_msg_dds__TFMessage__desc, "/tf", print_tf)) != 0 ||
      (rc = call(pp, &a, &entities, &eq, print_entities, a.repeat)) != 0 ||
      (rc = call(pp, &a, &get_state, &gq, print_get_state, 1)) != 0 ||
      (rc = call(pp, &a, &set_state, &sq, print_set_state, 1)) != 0 ||
      (rc = call(pp, &a, &get_state, &gq, print_get_state, 1)) != 0) {
    dds_delete(pp);
    return rc;
  }
  fflush(stdout);
  dds_delete(pp);
  return 0;
}
