/*
 * Shared by the interop peers (C and C++): command line, deterministic sample
 * contents and JSON output. The contract is described in interop/README.md.
 * Header-only; every function is static so each peer gets its own copy.
 */
#ifndef INTEROP_PEER_COMMON_H
#define INTEROP_PEER_COMMON_H

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Exit codes shared by all peers. */
enum {
  PEER_OK = 0,
  PEER_TIMEOUT = 1, /* not everything happened before -timeout */
  PEER_USAGE = 2,   /* bad command line, or a feature this peer lacks */
  PEER_FAILED = 3   /* a DDS call failed */
};

struct peer_args {
  int pub;             /* -role pub|sub */
  int watch;           /* -role watch: print each participant's USER_DATA (discovered or changed) until -timeout */
  int domain;          /* -domain N */
  const char *topic;   /* -topic T */
  long count;          /* -count N: samples written / expected */
  double rate;         /* -rate HZ: writes per second, 0 = no pause */
  int reliable;        /* -reliable | -best-effort */
  int durability;      /* -durability KIND | -transient-local | -volatile: PEER_DURABILITY_* */
  int keep_last;       /* -keep-last N, 0 = KEEP_ALL */
  int keys;            /* -keys N: ids 1..N */
  long payload;        /* -payload BYTES: values has payload/8 doubles */
  double timeout;      /* -timeout DUR, seconds */
  int dispose;         /* -dispose: dispose every key after writing, then unregister */
  int unregister;      /* -unregister: unregister every key after writing */
  int xcdr2;           /* -xcdr2: force XCDR2 data representation */
  int appendable;      /* -appendable: use the @appendable type interop::SampleA */
  const char *type;    /* -type NAME: register the type under this name */
  int wait_readers;    /* -wait-readers N: publisher waits for N matched readers */
  double settle;       /* -settle DUR, seconds: pause between matching and the first write */
  const char *start_file; /* -start-file PATH: after matching, wait for PATH to exist before writing */
  const char *ready_file; /* -ready-file PATH: the subscriber makes PATH once its reader has matched a writer */
  double linger;       /* -linger DUR, seconds: stay after the last write (pub) or sample (sub) */
  int quiet;           /* -quiet: do not print samples */
  long max_message_size; /* -max-message-size BYTES: datagram bound, 0 = the implementation's */
  double lifespan;     /* -lifespan DUR, seconds: writer LIFESPAN, 0 = infinite */
  int exclusive;       /* -ownership-strength given: OWNERSHIP EXCLUSIVE */
  long strength;       /* -ownership-strength N: the writer's OWNERSHIP_STRENGTH */
  int liveliness;      /* -liveliness automatic|participant|topic: PEER_LIVELINESS_* */
  double lease;        /* -lease DUR, seconds: LIVELINESS lease_duration, 0 = infinite */
  const char *filter;  /* -filter SQL: the subscriber reads a content-filtered topic (DDS-SQL) */
  const char *filter_params; /* -filter-params a,b: the filter's parameters %0, %1, ... */
  double deadline;     /* -deadline DUR, seconds: DEADLINE period, 0 = infinite */
  double latency_budget; /* -latency-budget DUR, seconds: LATENCY_BUDGET of the writer or reader */
  const char *partition; /* -partition A,B: the publisher's / subscriber's PARTITION, NULL = default */
  double time_filter;  /* -time-filter DUR, seconds: the reader's TIME_BASED_FILTER minimum_separation */
  long coherent;       /* -coherent N: PRESENTATION coherent_access; the publisher writes sets of N samples */
  int access_scope;    /* -access-scope instance|topic|group: PRESENTATION access_scope (with -coherent) */
  double heartbeat_period; /* -heartbeat-period DUR, seconds: a Fast DDS writer's HEARTBEAT period, 0 = the peer's 100 ms (Cyclone ignores it) */
};

/* The DURABILITY kinds of -durability, in the order of the DDS enum. */
enum { PEER_DURABILITY_VOLATILE = 0, PEER_DURABILITY_TRANSIENT_LOCAL = 1, PEER_DURABILITY_TRANSIENT = 2,
       PEER_DURABILITY_PERSISTENT = 3 };

/* The LIVELINESS kinds of -liveliness, in the order of the DDS enum. */
enum { PEER_LIVELINESS_AUTOMATIC = 0, PEER_LIVELINESS_PARTICIPANT = 1, PEER_LIVELINESS_TOPIC = 2 };

/* Status events go to stderr as JSON lines: "event" is the status kind in lower
 * case, then the status's counts in snake case (instance handles are local to
 * each implementation and left out). */
static void peer_print_liveliness_changed(int alive, int not_alive, int alive_change, int not_alive_change)
{
  fprintf(stderr,
          "{\"event\":\"liveliness_changed\",\"alive_count\":%d,\"not_alive_count\":%d,"
          "\"alive_count_change\":%d,\"not_alive_count_change\":%d}\n",
          alive, not_alive, alive_change, not_alive_change);
  fflush(stderr);
}

static void peer_print_liveliness_lost(int total, int total_change)
{
  fprintf(stderr, "{\"event\":\"liveliness_lost\",\"total_count\":%d,\"total_count_change\":%d}\n", total,
          total_change);
  fflush(stderr);
}

/* offered_deadline_missed / requested_deadline_missed */
static void peer_print_deadline_missed(const char *event, int total, int total_change)
{
  fprintf(stderr, "{\"event\":\"%s\",\"total_count\":%d,\"total_count_change\":%d}\n", event, total,
          total_change);
  fflush(stderr);
}

/* peer_policy_name is the name of QoS policy id as the events print it (upper case,
 * words joined by '_', as the ddsgo peer prints them), for the ids 0..22 that
 * DDS 1.4, Cyclone DDS and Fast DDS number alike; NULL for the others, which the
 * implementations number each their own way. */
static const char *peer_policy_name(int id)
{
  static const char *const names[] = {
    "INVALID", "USER_DATA", "DURABILITY", "PRESENTATION", "DEADLINE", "LATENCY_BUDGET", "OWNERSHIP",
    "OWNERSHIP_STRENGTH", "LIVELINESS", "TIME_BASED_FILTER", "PARTITION", "RELIABILITY", "DESTINATION_ORDER",
    "HISTORY", "RESOURCE_LIMITS", "ENTITY_FACTORY", "WRITER_DATA_LIFECYCLE", "READER_DATA_LIFECYCLE",
    "TOPIC_DATA", "GROUP_DATA", "TRANSPORT_PRIORITY", "LIFESPAN", "DURABILITY_SERVICE"};
  if (id < 0 || id >= (int)(sizeof names / sizeof names[0]))
    return NULL;
  return names[id];
}

/* offered_incompatible_qos / requested_incompatible_qos, with the last policy's name */
static void peer_print_incompatible_qos(const char *event, int total, int total_change, const char *policy)
{
  fprintf(stderr, "{\"event\":\"%s\",\"total_count\":%d,\"total_count_change\":%d,\"policy\":\"%s\"}\n",
          event, total, total_change, policy);
  fflush(stderr);
}

/* peer_split_partition splits -partition into at most max names, in place in buf
 * (a copy of the flag of size bufsize); it returns the number of names, or -1 when
 * there are too many or the flag is too long. */
static int peer_split_partition(const char *flag, char *buf, size_t bufsize, const char **names, int max)
{
  int n = 0;
  char *p;
  if (strlen(flag) >= bufsize)
    return -1;
  strcpy(buf, flag);
  for (p = buf;;) {
    char *comma = strchr(p, ',');
    if (n == max)
      return -1;
    names[n++] = p;
    if (comma == NULL)
      break;
    *comma = 0;
    p = comma + 1;
  }
  return n;
}

static void peer_usage(const char *prog)
{
  fprintf(stderr,
          "usage: %s -role pub|sub|watch [-domain N] [-topic T] [-count N] [-rate HZ]\n"
          "  [-reliable|-best-effort] [-transient-local|-volatile] [-keep-last N (0 = keep all)]\n"
          "  [-keys N] [-payload BYTES] [-timeout DUR] [-dispose] [-unregister] [-xcdr2]\n"
          "  [-appendable] [-type NAME] [-wait-readers N] [-settle DUR] [-linger DUR]\n"
          "  [-start-file PATH] [-ready-file PATH] [-quiet] [-max-message-size BYTES] [-lifespan DUR]\n"
          "  [-ownership-strength N] [-filter SQL [-filter-params a,b]]\n"
          "  [-liveliness automatic|participant|topic]\n"
          "  [-lease DUR] [-heartbeat-period DUR] [-deadline DUR] [-partition A,B] [-time-filter DUR]\n"
          "  [-coherent N [-access-scope instance|topic|group]]\n"
          "  [-durability volatile|transient-local|transient|persistent]\n"
          "  [-latency-budget DUR]\n"
          "DUR is seconds (\"2.5\") or Go form (\"500ms\", \"5s\", \"1m\").\n",
          prog);
}

/* peer_parse_duration accepts "2", "2.5", "500ms", "5s", "1m30s", "250us", "10ns", "1h". */
static int peer_parse_duration(const char *s, double *out)
{
  double total = 0;
  int parts = 0;
  if (*s == 0)
    return -1;
  while (*s) {
    char *end;
    double v;
    errno = 0;
    v = strtod(s, &end);
    if (end == s || errno != 0 || v < 0 || !isfinite(v))
      return -1;
    s = end;
    if (*s == 0) {
      if (parts > 0)
        return -1; /* "1m30" is ambiguous */
      total += v;
      break;
    }
    if (strncmp(s, "ns", 2) == 0) { total += v * 1e-9; s += 2; }
    else if (strncmp(s, "us", 2) == 0) { total += v * 1e-6; s += 2; }
    else if (strncmp(s, "ms", 2) == 0) { total += v * 1e-3; s += 2; }
    else if (*s == 's') { total += v; s += 1; }
    else if (*s == 'm') { total += v * 60; s += 1; }
    else if (*s == 'h') { total += v * 3600; s += 1; }
    else return -1;
    parts++;
  }
  *out = total;
  return 0;
}

static int peer_parse_long(const char *s, long lo, long hi, long *out)
{
  char *end;
  long v;
  errno = 0;
  v = strtol(s, &end, 10);
  if (end == s || *end != 0 || errno != 0 || v < lo || v > hi)
    return -1;
  *out = v;
  return 0;
}

/* peer_parse_args parses Go flag style arguments: "-name value", "-name=value",
 * and "--name" forms. Returns 0 on success, PEER_USAGE after printing why not. */
static int peer_parse_args(int argc, char **argv, struct peer_args *a)
{
  int i;
  int have_role = 0;
  memset(a, 0, sizeof(*a));
  a->domain = 0;
  a->topic = "ddsgo_interop";
  a->count = 10;
  a->rate = 0;
  a->reliable = 1;
  a->durability = PEER_DURABILITY_VOLATILE;
  a->keep_last = 0;
  a->keys = 1;
  a->payload = 16;
  a->timeout = 10;
  a->wait_readers = 1;
  a->settle = 0.5;
  a->linger = 0;
  for (i = 1; i < argc; i++) {
    char name[64];
    const char *arg = argv[i];
    const char *val = NULL;
    const char *eq;
    long n;
    if (arg[0] != '-')
      goto bad;
    arg++;
    if (arg[0] == '-')
      arg++;
    eq = strchr(arg, '=');
    if (eq) {
      size_t len = (size_t)(eq - arg);
      if (len >= sizeof(name))
        goto bad;
      memcpy(name, arg, len);
      name[len] = 0;
      val = eq + 1;
    } else {
      if (strlen(arg) >= sizeof(name))
        goto bad;
      strcpy(name, arg);
    }
#define BOOLFLAG(flag, field, value) \
    if (strcmp(name, flag) == 0) { \
      if (val && strcmp(val, "true") != 0) goto bad; \
      a->field = value; \
      continue; \
    }
    BOOLFLAG("reliable", reliable, 1)
    BOOLFLAG("best-effort", reliable, 0)
    BOOLFLAG("transient-local", durability, PEER_DURABILITY_TRANSIENT_LOCAL)
    BOOLFLAG("volatile", durability, PEER_DURABILITY_VOLATILE)
    BOOLFLAG("dispose", dispose, 1)
    BOOLFLAG("unregister", unregister, 1)
    BOOLFLAG("xcdr2", xcdr2, 1)
    BOOLFLAG("appendable", appendable, 1)
    BOOLFLAG("quiet", quiet, 1)
#undef BOOLFLAG
    if (strcmp(name, "h") == 0 || strcmp(name, "help") == 0) {
      peer_usage(argv[0]);
      exit(0);
    }
    if (val == NULL) {
      if (i + 1 >= argc)
        goto bad;
      val = argv[++i];
    }
    if (strcmp(name, "role") == 0) {
      if (strcmp(val, "pub") == 0) a->pub = 1;
      else if (strcmp(val, "sub") == 0) a->pub = 0;
      else if (strcmp(val, "watch") == 0) a->pub = 0, a->watch = 1;
      else goto bad;
      have_role = 1;
    } else if (strcmp(name, "domain") == 0) {
      if (peer_parse_long(val, 0, 232, &n)) goto bad;
      a->domain = (int)n;
    } else if (strcmp(name, "topic") == 0) {
      a->topic = val;
    } else if (strcmp(name, "count") == 0) {
      if (peer_parse_long(val, 0, 100000000, &a->count)) goto bad;
    } else if (strcmp(name, "rate") == 0) {
      char *end;
      a->rate = strtod(val, &end);
      if (end == val || *end != 0 || a->rate < 0 || !isfinite(a->rate)) goto bad;
    } else if (strcmp(name, "keep-last") == 0) {
      if (peer_parse_long(val, 0, 1000000, &n)) goto bad;
      a->keep_last = (int)n;
    } else if (strcmp(name, "keys") == 0) {
      if (peer_parse_long(val, 1, 1000000, &n)) goto bad;
      a->keys = (int)n;
    } else if (strcmp(name, "payload") == 0) {
      if (peer_parse_long(val, 0, 64L << 20, &a->payload)) goto bad;
    } else if (strcmp(name, "timeout") == 0) {
      if (peer_parse_duration(val, &a->timeout)) goto bad;
    } else if (strcmp(name, "type") == 0) {
      a->type = val;
    } else if (strcmp(name, "wait-readers") == 0) {
      if (peer_parse_long(val, 0, 1000000, &n)) goto bad;
      a->wait_readers = (int)n;
    } else if (strcmp(name, "settle") == 0) {
      if (peer_parse_duration(val, &a->settle)) goto bad;
    } else if (strcmp(name, "start-file") == 0) {
      a->start_file = val;
    } else if (strcmp(name, "ready-file") == 0) {
      a->ready_file = val;
    } else if (strcmp(name, "linger") == 0) {
      if (peer_parse_duration(val, &a->linger)) goto bad;
    } else if (strcmp(name, "max-message-size") == 0) {
      if (peer_parse_long(val, 0, 65500, &a->max_message_size)) goto bad;
    } else if (strcmp(name, "lifespan") == 0) {
      if (peer_parse_duration(val, &a->lifespan)) goto bad;
    } else if (strcmp(name, "ownership-strength") == 0) {
      if (peer_parse_long(val, -2147483647L - 1, 2147483647L, &a->strength)) goto bad;
      a->exclusive = 1;
    } else if (strcmp(name, "liveliness") == 0) {
      if (strcmp(val, "automatic") == 0)
        a->liveliness = PEER_LIVELINESS_AUTOMATIC;
      else if (strcmp(val, "participant") == 0)
        a->liveliness = PEER_LIVELINESS_PARTICIPANT;
      else if (strcmp(val, "topic") == 0)
        a->liveliness = PEER_LIVELINESS_TOPIC;
      else
        goto bad;
    } else if (strcmp(name, "lease") == 0) {
      if (peer_parse_duration(val, &a->lease)) goto bad;
    } else if (strcmp(name, "heartbeat-period") == 0) {
      if (peer_parse_duration(val, &a->heartbeat_period)) goto bad;
    } else if (strcmp(name, "coherent") == 0) {
      if (peer_parse_long(val, 1, 1000000, &a->coherent)) goto bad;
    } else if (strcmp(name, "access-scope") == 0) {
      if (strcmp(val, "instance") == 0) a->access_scope = 0;
      else if (strcmp(val, "topic") == 0) a->access_scope = 1;
      else if (strcmp(val, "group") == 0) a->access_scope = 2;
      else goto bad;
    } else if (strcmp(name, "filter") == 0) {
      a->filter = val;
    } else if (strcmp(name, "filter-params") == 0) {
      a->filter_params = val;
    } else if (strcmp(name, "deadline") == 0) {
      if (peer_parse_duration(val, &a->deadline)) goto bad;
    } else if (strcmp(name, "latency-budget") == 0) {
      if (peer_parse_duration(val, &a->latency_budget)) goto bad;
    } else if (strcmp(name, "partition") == 0) {
      a->partition = *val ? val : NULL;
    } else if (strcmp(name, "time-filter") == 0) {
      if (peer_parse_duration(val, &a->time_filter)) goto bad;
    } else if (strcmp(name, "durability") == 0) {
      if (strcmp(val, "volatile") == 0)
        a->durability = PEER_DURABILITY_VOLATILE;
      else if (strcmp(val, "transient-local") == 0)
        a->durability = PEER_DURABILITY_TRANSIENT_LOCAL;
      else if (strcmp(val, "transient") == 0)
        a->durability = PEER_DURABILITY_TRANSIENT;
      else if (strcmp(val, "persistent") == 0)
        a->durability = PEER_DURABILITY_PERSISTENT;
      else
        goto bad;
    } else {
      goto bad;
    }
  }
  if (!have_role) {
    fprintf(stderr, "%s: -role pub|sub|watch is required\n", argv[0]);
    peer_usage(argv[0]);
    return PEER_USAGE;
  }
  if (a->dispose && a->unregister) {
    fprintf(stderr, "%s: -dispose and -unregister are exclusive\n", argv[0]);
    return PEER_USAGE;
  }
  return 0;
bad:
  fprintf(stderr, "%s: bad argument near \"%s\"\n", argv[0], argv[i < argc ? i : argc - 1]);
  peer_usage(argv[0]);
  return PEER_USAGE;
}

/* Deterministic contents: sample number seq (1-based, over all keys). */
static int32_t peer_id(const struct peer_args *a, uint64_t seq)
{
  return (int32_t)(1 + (seq - 1) % (uint64_t)a->keys);
}

static uint32_t peer_nvalues(const struct peer_args *a)
{
  return (uint32_t)(a->payload / 8);
}

static double peer_value(uint64_t seq, uint32_t i)
{
  return (double)seq + (double)i / 8.0;
}

static void peer_text(char *buf, size_t size, int32_t id, uint64_t seq)
{
  snprintf(buf, size, "ddsgo %d %llu", (int)id, (unsigned long long)seq);
}

/* peer_format_double writes v the way Go's encoding/json writes a float64:
 * the shortest decimal that round-trips, in plain notation when
 * 1e-6 <= |v| < 1e21 (or v == 0) and in exponent notation otherwise
 * ("1e+21", "1.5e-7"). buf must hold at least 32 bytes. */
static void peer_format_double(char *buf, size_t size, double v)
{
  char tmp[40];
  char digits[24];
  int nd = 0, exp10 = 0, prec, neg = 0;
  char *p = buf;
  double av = fabs(v);
  if (v == 0) {
    snprintf(buf, size, signbit(v) ? "-0" : "0");
    return;
  }
  if (!isfinite(v)) {
    snprintf(buf, size, "null"); /* Go refuses these; never produced here */
    return;
  }
  /* shortest %.Ne that parses back to v */
  for (prec = 0; prec < 17; prec++) {
    snprintf(tmp, sizeof tmp, "%.*e", prec, v);
    if (strtod(tmp, NULL) == v)
      break;
  }
  /* tmp: [-]d[.ddd]e[+-]XX */
  {
    const char *s = tmp;
    if (*s == '-') { neg = 1; s++; }
    for (; *s && *s != 'e'; s++)
      if (*s >= '0' && *s <= '9')
        digits[nd++] = *s;
    exp10 = atoi(s + 1); /* value = 0.d1d2... * 10^(exp10+1) */
    while (nd > 1 && digits[nd - 1] == '0')
      nd--;
    digits[nd] = 0;
  }
  if (neg)
    *p++ = '-';
  if (av < 1e-6 || av >= 1e21) {
    int i;
    *p++ = digits[0];
    if (nd > 1) {
      *p++ = '.';
      for (i = 1; i < nd; i++)
        *p++ = digits[i];
    }
    /* Go: at least two exponent digits, but encoding/json trims "e-07" to "e-7" */
    if (exp10 < 0 && exp10 > -10)
      snprintf(p, size - (size_t)(p - buf), "e-%d", -exp10);
    else
      snprintf(p, size - (size_t)(p - buf), "e%c%02d", exp10 < 0 ? '-' : '+', exp10 < 0 ? -exp10 : exp10);
    return;
  }
  {
    int point = exp10 + 1; /* digits before the decimal point */
    int i;
    if (point <= 0) {
      *p++ = '0';
      *p++ = '.';
      for (i = 0; i < -point; i++)
        *p++ = '0';
      for (i = 0; i < nd; i++)
        *p++ = digits[i];
    } else {
      for (i = 0; i < point; i++)
        *p++ = i < nd ? digits[i] : '0';
      if (nd > point) {
        *p++ = '.';
        for (i = point; i < nd; i++)
          *p++ = digits[i];
      }
    }
    *p = 0;
  }
}

/* Output goes through one buffer per line so that large samples print fast. */
struct peer_line {
  char *buf;
  size_t len, cap;
};

static void peer_line_reserve(struct peer_line *l, size_t extra)
{
  if (l->len + extra + 1 > l->cap) {
    size_t cap = l->cap ? l->cap : 256;
    while (l->len + extra + 1 > cap)
      cap *= 2;
    l->buf = (char *)realloc(l->buf, cap);
    if (l->buf == NULL) {
      fprintf(stderr, "out of memory\n");
      exit(PEER_FAILED);
    }
    l->cap = cap;
  }
}

static void peer_line_add(struct peer_line *l, const char *s)
{
  size_t n = strlen(s);
  peer_line_reserve(l, n);
  memcpy(l->buf + l->len, s, n + 1);
  l->len += n;
}

/* peer_line_add_string appends a JSON string, escaped like Go's encoding/json
 * (which also escapes <, > and &). */
static void peer_line_add_string(struct peer_line *l, const char *s)
{
  char esc[8];
  peer_line_add(l, "\"");
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"') peer_line_add(l, "\\\"");
    else if (c == '\\') peer_line_add(l, "\\\\");
    else if (c == '\n') peer_line_add(l, "\\n");
    else if (c == '\r') peer_line_add(l, "\\r");
    else if (c == '\t') peer_line_add(l, "\\t");
    else if (c < 0x20 || c == '<' || c == '>' || c == '&') {
      snprintf(esc, sizeof esc, "\\u%04x", c);
      peer_line_add(l, esc);
    } else {
      char one[2] = {(char)c, 0};
      peer_line_add(l, one);
    }
  }
  peer_line_add(l, "\"");
}

/* peer_print_sample prints {"id":1,"text":"ddsgo 1 1","values":[1,1.125],"seq":1}. */
static void peer_print_sample(struct peer_line *l, int32_t id, const char *text,
                              const double *values, uint32_t n, uint64_t seq)
{
  char num[48];
  uint32_t i;
  l->len = 0;
  snprintf(num, sizeof num, "{\"id\":%d,\"text\":", (int)id);
  peer_line_add(l, num);
  peer_line_add_string(l, text);
  peer_line_add(l, ",\"values\":[");
  for (i = 0; i < n; i++) {
    if (i > 0)
      peer_line_add(l, ",");
    peer_format_double(num, sizeof num, values[i]);
    peer_line_add(l, num);
  }
  snprintf(num, sizeof num, "],\"seq\":%llu}\n", (unsigned long long)seq);
  peer_line_add(l, num);
  fwrite(l->buf, 1, l->len, stdout);
  fflush(stdout);
}

/* peer_print_state prints {"id":1,"state":"disposed"} (or "unregistered"). */
static void peer_print_state(int32_t id, const char *state)
{
  printf("{\"id\":%d,\"state\":\"%s\"}\n", (int)id, state);
  fflush(stdout);
}

/* Instance state transitions seen by a subscriber, per id in [1, keys]. */
struct peer_states {
  unsigned char *state; /* keys+1 entries, bit 1 disposed, bit 2 unregistered reported */
  int keys;
  int dispose;          /* 1: -dispose (count disposed), 0: -unregister */
};

/* peer_note_state prints the first disposed / unregistered transition of
 * each id and returns 1 when it is the kind of event the run expects. */
static int peer_note_state(struct peer_states *t, int32_t id, int disposed, int no_writers)
{
  unsigned char bit;
  const char *name;
  if (disposed) { bit = 1; name = "disposed"; }
  else if (no_writers) { bit = 2; name = "unregistered"; }
  else return 0;
  if (id < 1 || id > t->keys || (t->state[id] & bit))
    return 0;
  t->state[id] |= bit;
  peer_print_state(id, name);
  return (bit == 1) == (t->dispose != 0);
}

static double peer_now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void peer_sleep(double seconds)
{
  struct timespec ts;
  if (seconds <= 0)
    return;
  ts.tv_sec = (time_t)seconds;
  ts.tv_nsec = (long)((seconds - (double)ts.tv_sec) * 1e9);
  while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
  }
}

/* peer_wait_start waits until a->start_file exists (no -start-file: at once) or
 * the deadline passes; it returns 0, or -1 at the deadline. The test harness
 * makes the file when the subscriber reports that its reader has matched the
 * writer: a writer's own side of a match says nothing of the reader's, and a
 * best-effort or volatile reader gets nothing written before it matched. */
static int peer_wait_start(const struct peer_args *a, double deadline)
{
  if (a->start_file == NULL)
    return 0;
  while (access(a->start_file, F_OK) != 0) {
    if (peer_now() > deadline)
      return -1;
    peer_sleep(0.005);
  }
  return 0;
}

/* peer_make_ready makes a->ready_file (the subscriber's reader has matched a
 * writer: peer_wait_start). */
static void peer_make_ready(const struct peer_args *a)
{
  FILE *f = fopen(a->ready_file, "w");
  if (f == NULL || fclose(f) != 0)
    fprintf(stderr, "peer: cannot make %s: %s\n", a->ready_file, strerror(errno));
}

#ifdef __cplusplus
}
#endif

#endif /* INTEROP_PEER_COMMON_H */
