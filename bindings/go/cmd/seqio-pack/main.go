// The module folder (bindings/go) → the module's zip, .mod, .info and version list laid out as a file-based
// GOPROXY (the module proxy protocol, served from disk) in the folder given → `go get` from an empty folder with
// GOPROXY=file://<that folder>,... fetches seq-io-spec.example/seqio at PackageVersion like any module.
//
// WHY it is shaped this way: nothing is published; the package is proven by consuming it exactly as a user would,
// through the toolchain's own module download and checksum path. archive/zip from the standard library keeps the
// module free of extra dependencies; the version is the generated PackageVersion (one source, the type model).
package main

import (
	"archive/zip"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"seq-io-spec.example/seqio"
)

const modulePath = "seq-io-spec.example/seqio"

// released is the fixed time written into the archive and the .info file, so two packs are byte-identical.
var released = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func main() {
	if len(os.Args) == 2 && os.Args[1] == "-version" {
		fmt.Println("v" + seqio.PackageVersion)
		return
	}
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: seqio-pack <module folder> <proxy folder> | seqio-pack -version")
		os.Exit(2)
	}
	if err := pack(os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintln(os.Stderr, "seqio-pack:", err)
		os.Exit(1)
	}
}

func pack(moduleDir, proxyDir string) error {
	version := "v" + seqio.PackageVersion
	dir := filepath.Join(proxyDir, modulePath, "@v")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	goMod, err := os.ReadFile(filepath.Join(moduleDir, "go.mod"))
	if err != nil {
		return err
	}
	info := fmt.Sprintf("{\"Version\":%q,\"Time\":%q}\n", version, released.Format(time.RFC3339))
	writes := map[string][]byte{"list": []byte(version + "\n"), version + ".info": []byte(info), version + ".mod": goMod}
	for name, data := range writes {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return err
		}
	}
	return writeZip(moduleDir, filepath.Join(dir, version+".zip"), modulePath+"@"+version+"/")
}

// moduleFiles lists the files of the module folder, sorted, without hidden files.
func moduleFiles(moduleDir string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(moduleDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if strings.HasPrefix(d.Name(), ".") && path != moduleDir {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() {
			relative, _ := filepath.Rel(moduleDir, path)
			files = append(files, filepath.ToSlash(relative))
		}
		return nil
	})
	sort.Strings(files)
	return files, err
}

func writeZip(moduleDir, target, prefix string) error {
	files, err := moduleFiles(moduleDir)
	if err != nil {
		return err
	}
	out, err := os.Create(target)
	if err != nil {
		return err
	}
	defer out.Close()
	archive := zip.NewWriter(out)
	for _, name := range files {
		data, err := os.ReadFile(filepath.Join(moduleDir, filepath.FromSlash(name)))
		if err != nil {
			return err
		}
		entry, err := archive.CreateHeader(&zip.FileHeader{Name: prefix + name, Method: zip.Deflate, Modified: released})
		if err != nil {
			return err
		}
		if _, err := entry.Write(data); err != nil {
			return err
		}
	}
	return archive.Close()
}
