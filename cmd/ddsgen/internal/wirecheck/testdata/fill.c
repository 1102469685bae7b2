/* Writes the CDR body Cyclone DDS serializes for the samples of wire.idl that
 * wirecheck_test.go fills with the same values in Go: one line per type and XCDR
 * version, "Type version hex". Built by the test with idlc and the C compiler. */
#include <stdio.h>
#include <string.h>
#include "dds/dds.h"
#include "dds/ddsi/ddsi_cdrstream.h"
#include "dds/ddsi/ddsi_serdata_default.h"
#include "wire.h"

static void dump(const char *name, const void *sample, const dds_topic_descriptor_t *desc, uint32_t version)
{
  dds_ostreamLE_t os;
  dds_ostreamLE_init(&os, 0, version);
  dds_stream_writeLE(&os, sample, desc->m_ops);
  printf("%s %u ", name, (unsigned)version);
  for (uint32_t i = 0; i < os.x.m_index; i++)
    printf("%02x", os.x.m_buffer[i]);
  printf("\n");
  dds_ostreamLE_fini(&os);
}

/* dumpkey writes the key as Cyclone serializes it for the key hash (XCDR2, big endian)
 * and whether idlc found the key fixed-size within 16 bytes (no MD5): "Type key fixed hex". */
static void dumpkey(const char *name, const void *sample, const dds_topic_descriptor_t *desc)
{
  struct ddsi_sertype_default st;
  ddsi_sertype_default_desc_key_t keys[16];
  memset(&st, 0, sizeof(st));
  for (uint32_t i = 0; i < desc->m_nkeys && i < 16; i++) {
    keys[i].ops_offs = desc->m_keys[i].m_offset;
    keys[i].idx = desc->m_keys[i].m_idx;
  }
  st.type.size = desc->m_size;
  st.type.align = desc->m_align;
  st.type.flagset = desc->m_flagset;
  st.type.keys.nkeys = desc->m_nkeys;
  st.type.keys.keys = keys;
  st.type.ops.ops = (uint32_t *)desc->m_ops;
  st.write_encoding_version = 2;
  dds_ostreamBE_t os;
  dds_ostreamBE_init(&os, 0, 2);
  dds_stream_write_keyBE(&os, sample, &st);
  printf("%s key%d ", name, (desc->m_flagset & DDS_TOPIC_FIXED_KEY_XCDR2) ? 1 : 0);
  for (uint32_t i = 0; i < os.x.m_index; i++)
    printf("%02x", os.x.m_buffer[i]);
  printf("\n");
  dds_ostreamBE_fini(&os);
}

int main(void)
{
  int32_t longs[] = {1, 2, 3};
  char *names[] = {"a", "bc"};
  wire_Point path[] = {{5, 6}};
  int16_t n0[] = {1, 2}, n2[] = {3};
  dds_sequence_short nested[] = {{2, 2, n0, false}, {0, 0, NULL, false}, {1, 1, n2, false}};
  wire_Final f = {
    .id = 7, .b = true, .c = 'x', .o = 0xab, .s = -2, .us = 65000, .l = -100000,
    .ul = 4000000000u, .ll = -5000000000000LL, .ull = 18000000000000000000ULL,
    .f = 1.5f, .d = -2.25, .text = "hello",
    .longs = {3, 3, longs, false}, .names = {2, 2, names, false},
    .pts = {{1, 2}, {3, 4}}, .path = {1, 1, path, false},
    .color = wire_BLUE, .nested = {3, 3, nested, false},
  };
  strcpy(f.short_text, "short");
  f.choice._d = 3;
  strcpy(f.choice._u.text, "ten");
  f.choice_default._d = 9;
  f.choice_default._u.values[0] = 0.5;
  f.choice_default._u.values[1] = 0.25;
  f.by_color._d = wire_GREEN;
  f.by_color._u.g = "green";
  dump("Final", &f, &wire_Final_desc, 1);
  dump("Final", &f, &wire_Final_desc, 2);
  dumpkey("Final", &f, &wire_Final_desc);

  int32_t maybe = 42;
  wire_AppInner inners[] = {{2, "x"}, {3, ""}};
  wire_App a = {
    .id = 8, .maybe = &maybe, .note = "note", .inner = {1, "in"},
    .inners = {2, 2, inners, false}, .p = {1.25, -1},
  };
  a.choice._d = 1;
  a.choice._u.num = 77;
  a.app_choice._d = 2;
  a.app_choice._u.s = "u";
  dump("App", &a, &wire_App_desc, 2);
  dumpkey("App", &a, &wire_App_desc);

  int32_t five = 5;
  int32_t items[] = {10, 20};
  wire_Mut m = {
    .mid = 9, .name = "mut", .value = 3.5, .maybe = &five, .absent = NULL,
    .items = {2, 2, items, false}, .inner = {4, "deep"},
  };
  dump("Mut", &m, &wire_Mut_desc, 2);
  dumpkey("Mut", &m, &wire_Mut_desc);

  wire_Keyed k = {.a = 0x01020304, .o = 0xee, .value = 1};
  strcpy(k.name, "sixsix");
  dumpkey("Keyed", &k, &wire_Keyed_desc);
  wire_KeyedLong kl = {.a = 5};
  strcpy(kl.name, "a");
  dumpkey("KeyedLong", &kl, &wire_KeyedLong_desc);

  wire_Grid g = {
    .cells = {{1, 2, 3}, {4, 5, 6}},
    .corners = {{{1, 2}, {3, 4}}, {{5, 6}, {7, 8}}},
  };
  dump("Grid", &g, &wire_Grid_desc, 1);
  dump("Grid", &g, &wire_Grid_desc, 2);

  uint8_t raw[] = {1, 2, 3};
  wire_Derived d = {.parent = {2, "derived"}, .value = 6.5, .raw = {3, 3, raw, false}};
  dump("Derived", &d, &wire_Derived_desc, 1);
  dump("Derived", &d, &wire_Derived_desc, 2);
  dumpkey("Derived", &d, &wire_Derived_desc);
  return 0;
}
