package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// stringList is a repeatable flag.
type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(v string) error { *l = append(*l, v); return nil }

// run is the command with its arguments; it returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("ddsgen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var opt options
	var out string
	fs.StringVar(&opt.pkg, "package", os.Getenv("GOPACKAGE"), "Go package `name` of the generated file (default: $GOPACKAGE, set by go generate)")
	fs.StringVar(&out, "o", "", "write the Go source to `file` instead of standard output")
	fs.BoolVar(&opt.scoped, "scoped", false, "prefix Go names with their modules (Mod_Sub_Name) instead of the bare name")
	fs.StringVar(&opt.ext, "x", "final", "default extensibility of types without an annotation: final, appendable or mutable")
	fs.Var((*stringList)(&opt.incDirs), "I", "add `dir` to the #include search path, or with -ros to where ROS packages are looked up (repeatable)")
	var ros, idl bool
	fs.BoolVar(&ros, "ros", false, "read ROS 2 .msg, .srv and .action files (or package directories) instead of IDL")
	fs.BoolVar(&idl, "idl", false, "with -ros, write the IDL that the definitions stand for instead of Go")
	fs.StringVar(&opt.rosImport, "rosimport", "github.com/ddsgo/ddsgo/ros", "with -ros, the import path `prefix` of the Go packages of other ROS packages (prefix/pkg)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: ddsgen [flags] file.idl...\n       ddsgen -ros [flags] pkgdir | pkg/msg/Name.msg...")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return 2
	}
	if ros {
		return write(generateROS(opt, fs.Args(), idl))(out, stdout, stderr)
	}
	if opt.pkg == "" {
		fmt.Fprintln(stderr, "ddsgen: -package is needed outside go generate")
		return 2
	}
	switch opt.ext {
	case "final", "appendable", "mutable":
	default:
		fmt.Fprintf(stderr, "ddsgen: -x %s: want final, appendable or mutable\n", opt.ext)
		return 2
	}
	return write(generate(opt, fs.Args()))(out, stdout, stderr)
}

// write returns what writes the generated source to the file out, or stdout when out
// is empty, and returns the exit status.
func write(src []byte, err error) func(out string, stdout, stderr io.Writer) int {
	return func(out string, stdout, stderr io.Writer) int {
		if err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
		return writeOut(src, out, stdout, stderr)
	}
}

func writeOut(src []byte, out string, stdout, stderr io.Writer) int {
	var err error
	if out == "" {
		_, err = stdout.Write(src)
	} else {
		err = os.WriteFile(out, src, 0o644)
	}
	if err != nil {
		fmt.Fprintf(stderr, "ddsgen: %v\n", err)
		return 1
	}
	return 0
}
