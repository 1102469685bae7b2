// Package xtypes builds the type descriptions of DDS-XTypes 1.3 §7.3.4 from the codec's
// description of a Go type (cdr.Describe): the minimal and complete TypeObjects of a
// struct or union and of every type it uses, their XCDR2 serialization, the
// EquivalenceHash that names each (the first 14 bytes of the MD5 of the serialized
// TypeObject), the TypeIdentifiers of members (primitives, strings and plain collections
// in place, structs and unions by hash), and the TypeInformation an endpoint announces in
// SEDP (PID_TYPE_INFORMATION).
//
// The bytes are those Cyclone DDS 0.10.2's idlc generates for the same IDL (its
// TYPE_INFO_CDR and TYPE_MAP_CDR), which golden_test.go checks type by type, so that a
// Cyclone DDS peer finds a ddsgo type to be its own. Where Cyclone DDS departs from the
// specification, this package follows Cyclone DDS: IDL int8 and uint8 have the kinds
// TK_CHAR8 and TK_BYTE, and the dependencies are listed in the order of a depth-first
// walk of the members.
//
// # What is described
//
// Structs (final, appendable, mutable; keys, optional members, explicit member ids),
// enums (a Go integer type with a DDSEnumerators method, cdr.Enumerated), unions with an
// integer, boolean or enum discriminator, nested structs, strings (bounded or not),
// sequences and arrays (multi-dimensional arrays as one array) of any of these, and the
// primitives. The member names are the IDL names given with the name= tag option, or the
// Go field names; the type names are the DDSTypeName of each struct.
//
// Not described: recursive types (they need strongly connected component identifiers),
// bitmasks and typedefs (a Go alias is its underlying type, so the TypeObject would have
// it where the IDL has the alias; Named rejects a Go defined type that is not an enum),
// annotations other than extensibility, key, optional and id, and maps.
//
// # TypeLookup
//
// Registry answers the getTypes requests of the TypeLookup service (§7.6.3.3) with the
// TypeObjects of the types added to it, in the form Cyclone DDS 0.10.2 uses. The client
// side: AppendRequest asks for types, ParseReply reads the answer, and Cache keeps what
// was asked for, checked against its hash and bounded in count and size, asks again and
// gives up (the participant's transport of it is internal/discovery's typeclient.go).
//
// # Peers' types
//
// ParseObject parses a TypeObject (structs, unions, enums, aliases; complete or minimal)
// into a Type. Assignable applies the assignability rules of §7.2.4 to two announced
// types, and Decode reads a serialized sample (XCDR1 or XCDR2) of a type into ordered
// values that encoding/json prints (Struct), for a reader without the Go type.
package xtypes
