// Command ddsgen turns OMG IDL 4 files into Go types that ddsgo's DataWriter[T] and
// DataReader[T] exchange with Cyclone DDS, Fast DDS and other DDS implementations: the
// Go structs map member by member to the CDR the peers' IDL compilers (idlc, fastddsgen)
// generate code for, and each topic type names itself with its scoped IDL name.
//
// # Usage
//
//	ddsgen [-package name] [-o file.go] [-I dir]... [-scoped] [-x final|appendable|mutable] file.idl...
//	ddsgen -ros [flags] PKGDIR | PKG/msg/Name.msg...   (ROS 2 definitions, below)
//
// From go generate, in the package the types belong to:
//
//	//go:generate go run github.com/ddsgo/ddsgo/cmd/ddsgen -o types.go shapes.idl
//
// -package defaults to $GOPACKAGE, which go generate sets. -o defaults to standard
// output. Several files go into one output; a file included by several is read once. -x
// sets the extensibility of types without an annotation (default final, as idlc's).
// Errors name the file, line and column:
//
//	shapes.idl:12:5: undefined name Shade
//
// A generated struct is a topic type as it stands: its DDSTypeName method gives the type
// name the peers know it by, and DDSExtensibility (when not final) its extensibility.
//
// The members of a struct or union that its Go form describes exactly carry their IDL
// names (`dds:"name=frame_id"`); ddsgo then announces the type's XTypes TypeObjects,
// which are those idlc generates (docs/types.md, "Type information"). A type that uses a
// typedef, char, a base struct, @nested, hashed member ids, a bound inside a sequence or
// array, an enum with a @bit_bound other than 8, 16 or 32 or with @default_literal, or
// other annotations than @key, @id, @optional and @default is generated without names,
// and its endpoints announce no type information.
//
// # Mapping
//
//	IDL                                   Go
//	module m { ... }                      flattened into the one Go package (see Names)
//	struct S { ... }                      type S struct { ... }
//	  topic types (all but @nested)       func (S) DDSTypeName() string { return "m::S" }
//	  T m (described exactly)             M T `dds:"name=m"`
//	  @appendable, @mutable,              func (S) DDSExtensibility() dds.Extensibility
//	  @extensibility(...)                   { return dds.Appendable } (or dds.Mutable)
//	  @final, none                        no method: final
//	struct D : B { ... }                  B's members first, then D's, in one struct
//	@key T m; #pragma keylist S m         M T `dds:"key"`
//	@optional T m                         M *T (nil: absent)
//	@id(N), @hashid, @autoid(HASH)        `dds:"id=N"` (written for mutable types and
//	                                        whenever ids are not 0, 1, 2, ...)
//	boolean                               bool
//	char, octet, uint8 / int8             byte, byte, uint8 / int8
//	short, unsigned short (int16, uint16) int16, uint16
//	long, unsigned long (int32, uint32)   int32, uint32
//	long long, unsigned long long         int64, uint64
//	float, double                         float32, float64
//	string, string<N>                     string, string `dds:"bound=N"`
//	sequence<T>, sequence<T, N>           []T, []T `dds:"bound=N"`
//	T m[N][M]                             M [N][M]T
//	typedef T A                           type A = T (an alias; bounds go on members)
//	enum E { A, @value(5) B }             type E int32 (int8, int16 with @bit_bound),
//	                                        consts E_A, E_B, a String method, DDSTypeName
//	                                        and DDSEnumerators (names and values)
//	union U switch (D) {                  type U struct {
//	  case 1: case 2: T a;                  Disc D `dds:"disc"`
//	  default: V b; }                       A T `dds:"case=1|2"`
//	                                        B V `dds:"default"` }
//	const T X = expr                      const X T = value (evaluated)
//	@default(value=v) T m                 M T // default v (a comment: not on the wire)
//
// # Names
//
// Types and members become exported CamelCase: the IDL name is split at underscores and
// each part capitalized, lower-case initialisms (id, url, qos, ...) in capitals, so
// frame_id is FrameID and SampleA stays SampleA. Constants keep their spelling with the
// first letter capitalized (MAX_LEN); enumerators are prefixed by their enum's Go name
// (Color_RED). The union discriminator is Disc (Disc_ when a member is called disc).
//
// Modules are flattened: by default a Go name is the bare IDL name, and two
// declarations that map to the same Go name (a::Point and b::Point) are an error. With
// -scoped every Go name carries its modules, each CamelCased, joined by underscores
// (A_Point, B_C_Point, A_B_MAX); clashes are still reported, never resolved silently.
// The topic type name is always the scoped IDL name ("a::Point").
//
// # Preprocessor
//
// #include "file" (the including file's directory, then -I) and <file> (-I), #define of
// object-like macros, #undef, #ifdef, #ifndef, #else, #endif, #pragma once and
// #pragma keylist. #if, #elif, function-like macros and line markers are errors; other
// pragmas are ignored.
//
// # Not supported
//
// Interfaces, value types, exceptions, any, native, fixed, long double, wchar, wstring,
// maps, bitsets, bitmasks and annotation definitions are errors, as are mutable unions
// (ddsgo's codec has none). Unknown annotations are ignored, as IDL 4 allows. Bounds of
// elements (sequence<string<8>>, string<8> a[3]) are not kept: the wire does not carry
// them, and they only narrow what a value may hold, except in a key, where they can make
// a key fit in 16 bytes; such a key is hashed with MD5 by ddsgo.
//
// # ROS 2 definitions
//
//	ddsgen -ros [-package name] [-o file.go] [-I dir]... [-rosimport prefix] [-idl] PKGDIR | PKG/msg/Name.msg...
//
// With -ros ddsgen reads the .msg, .srv and .action files of one ROS 2 package: a
// package directory (all of PKGDIR/msg/*.msg, PKGDIR/srv/*.srv, PKGDIR/action/*.action)
// or some of its files (the package is the directory above msg/, srv/ or action/). The
// messages they use are looked up as DIR/pkg/msg/Name.msg, in the directory that holds
// the package first, then in each -I dir. Types of the package are generated; types of
// other packages are imported from the Go package prefix/pkg (-rosimport, default
// github.com/ddsgo/ddsgo/ros, whose packages are generated from ros/defs). -package
// defaults to $GOPACKAGE, then to the ROS package name.
//
// The definitions become the IDL that ROS 2 gives them (-idl prints it, with what it
// uses, dependencies first), and that IDL the Go types as above, so the wire form is
// rmw's: a .msg as rosidl_adapter converts it (ros2/rosidl:
// rosidl_adapter/rosidl_adapter/parser.py, msg/__init__.py), named as
// rosidl_generator_dds_idl names it (ros2/rosidl_dds: resource/msg.idl.em):
//
//	ROS 2                          IDL (on the wire)                    Go
//	pkg/msg/Name.msg               struct pkg::msg::dds_::Name_         type Name struct
//	pkg/srv/Name.srv               pkg::srv::dds_::Name_Request_,       NameRequest, NameResponse
//	                                 Name_Response_
//	pkg/action/Name.action         pkg::action::dds_::Name_Goal_,       NameGoal, NameResult,
//	                                 _Result_, _Feedback_,                NameFeedback,
//	                                 _SendGoal_Request_ {goal_id; goal},  NameSendGoalRequest, ...
//	                                 _SendGoal_Response_ {accepted; stamp},
//	                                 _GetResult_Request_ {goal_id},
//	                                 _GetResult_Response_ {status; result},
//	                                 _FeedbackMessage_ {goal_id; feedback}
//	field frame_id                 member frame_id_                     FrameID
//	bool, byte, char               boolean, octet, uint8                bool, byte, uint8
//	float32, float64               float, double                        float32, float64
//	int8 ... uint64                int8 ... uint64                      int8 ... uint64
//	string, string<=N              string, string<N>                    string (`dds:"bound=N"`)
//	T[], T[<=N], T[N]              sequence<T>, sequence<T, N>, T m[N]  []T, []T (bound), [N]T
//	pkg/Type, Type                 pkg::msg::dds_::Type_                pkg.Type (imported), Type
//	no fields                      uint8 structure_needs_at_least_one_member_
//	                                                                    StructureNeedsAtLeastOneMember uint8
//	uint8 X=1 in Name              const uint8 X_ = 1 in module         const Name_X uint8 = 1
//	                                 Name_Constants
//	int32 x 5 (a default)          @default(value=5) int32 x_           X int32 // default 5
//
// The IDL of -idl names other types without a leading :: (as rosidl_generator_dds_idl
// does; fastddsgen rejects it), and ROS names members like their types (UUID_ { uuid_ },
// result_ of type Result_), which IDL's case-insensitive scopes forbid: Cyclone's idlc
// takes it with -f case-sensitive, fastddsgen with -cs.
//
// The goal_id of an action's types is unique_identifier_msgs/UUID and stamp is
// builtin_interfaces/Time (ros2/rosidl: rosidl_parser/rosidl_parser/definition.py).
// Constants and default values are not on the wire, nor are member names (final types in
// XCDR1, what both rmws use). Defaults are only comments: the zero value of a generated
// struct is not ROS's default-constructed message where a default is not zero
// (geometry_msgs/Quaternion's w is 1). Not supported: wstring (ddsgo's codec has no wide
// strings), @optional (not in Humble and Jazzy), the legacy time and duration, and the
// service event messages (Name_Event_) of service introspection.
//
// # Wire compatibility
//
// The tests compare, byte for byte, what ddsgo's codec writes for generated types, and
// the key hashes it computes, with what Cyclone DDS computes for the same IDL and
// values, and run the interop peers with types generated from interop/idl/Sample.idl.
// One difference remains, in the codec: in XCDR2 it writes a multi-dimensional array
// (long a[2][3]) with a DHEADER per inner dimension, where Cyclone DDS writes one array
// (a one-dimensional long a[6] avoids it; final types in XCDR1, the default, are not
// affected). The key hash of a mutable type is computed, as Cyclone DDS and Fast DDS
// compute it, from its key members without a DHEADER or member headers (XTypes 1.3
// §7.6.8: the KeyHolder type is FINAL).
package main
