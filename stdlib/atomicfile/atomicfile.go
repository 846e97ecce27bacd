// Package atomicfile replaces files so that a crash, a full disk or a
// failing writer never leaves one half-written: the new content goes to a
// temporary file in the same directory, is synced, and is renamed over the
// old one, which until then stays whole. It is the one place grundy writes
// a file a user would miss (saved tables, notebooks, the kernelspec).
package atomicfile

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Write replaces path with what write produces. A symbolic link is
// followed, so its target is updated and the link kept; an existing file
// keeps its permissions, a new one gets perm. If write fails, path is
// left as it was.
func Write(path string, perm os.FileMode, write func(w io.Writer) error) error {
	return replace(path, perm, true, write)
}

// Replace is Write, except that the file gets perm whatever it had.
func Replace(path string, perm os.FileMode, write func(w io.Writer) error) error {
	return replace(path, perm, false, write)
}

func replace(path string, perm os.FileMode, keepPerm bool, write func(w io.Writer) error) error {
	target, err := resolve(path)
	if err != nil {
		return err
	}
	if st, err := os.Stat(target); err == nil {
		if !st.Mode().IsRegular() {
			return fmt.Errorf("%s is not a regular file", path)
		}
		if keepPerm {
			perm = st.Mode().Perm()
		}
	}
	dir := filepath.Dir(target)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(target)+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // a no-op once renamed
	bw := bufio.NewWriterSize(tmp, 256<<10)
	err = write(bw)
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		err = tmp.Chmod(perm)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), target); err != nil {
		return err
	}
	// The rename itself is only durable once the directory is synced.
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
	return nil
}

// WriteFile is Write with the content in hand.
func WriteFile(path string, data []byte, perm os.FileMode) error {
	return Write(path, perm, bytesWriter(data))
}

// ReplaceFile is Replace with the content in hand.
func ReplaceFile(path string, data []byte, perm os.FileMode) error {
	return Replace(path, perm, bytesWriter(data))
}

func bytesWriter(data []byte) func(io.Writer) error {
	return func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	}
}

// resolve follows symbolic links to the file they name (which need not
// exist yet).
func resolve(path string) (string, error) {
	for i := 0; i < 40; i++ {
		fi, err := os.Lstat(path)
		if err != nil || fi.Mode()&os.ModeSymlink == 0 {
			return path, nil
		}
		link, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(path), link)
		}
		path = link
	}
	return "", fmt.Errorf("%s: too many levels of symbolic links", path)
}

// CheckWritable reports, before any work is done, whether path could be
// written: its directory (or the directory of the file a symbolic link
// names) must accept a new file, and an existing file must be writable.
func CheckWritable(path string) error {
	target, err := resolve(path)
	if err != nil {
		return err
	}
	if st, err := os.Stat(target); err == nil {
		if st.IsDir() {
			return fmt.Errorf("%s is a directory", path)
		}
		f, err := os.OpenFile(target, os.O_WRONLY, 0)
		if err != nil {
			return err
		}
		f.Close()
	}
	tmp, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".*.tmp")
	if err != nil {
		return err
	}
	name := tmp.Name()
	tmp.Close()
	return os.Remove(name)
}
