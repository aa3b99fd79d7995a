package main

import (
	"os"
	"os/signal"
	"path/filepath"
	"sync"
	"syscall"
)

// The temporary files of -o, removed when SIGINT or SIGTERM ends the
// command before it put them in place. The signals are caught only while
// a temporary file exists; the command then exits with 128 plus the
// signal's number, as a shell reports a process killed by it.
var temps struct {
	sync.Mutex
	files map[string]bool
	sigs  chan os.Signal
}

// createTemp creates the temporary file for target, next to it, and
// registers it for removal on SIGINT or SIGTERM.
func createTemp(target string) (*os.File, error) {
	temps.Lock()
	defer temps.Unlock()
	f, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".tmp-*")
	if err != nil {
		return nil, err
	}
	if temps.files == nil {
		temps.files = map[string]bool{}
		temps.sigs = make(chan os.Signal, 1)
		go removeTempsOnSignal()
	}
	if len(temps.files) == 0 {
		signal.Notify(temps.sigs, os.Interrupt, syscall.SIGTERM)
	}
	temps.files[f.Name()] = true
	return f, nil
}

// forgetTemp unregisters a temporary file that was renamed or removed.
func forgetTemp(name string) {
	temps.Lock()
	defer temps.Unlock()
	delete(temps.files, name)
	if len(temps.files) == 0 && temps.sigs != nil {
		signal.Stop(temps.sigs)
	}
}

func removeTempsOnSignal() {
	for sig := range temps.sigs {
		temps.Lock() // held until exit: no file is put in place meanwhile
		if len(temps.files) == 0 {
			temps.Unlock()
			continue
		}
		for name := range temps.files {
			os.Remove(name)
		}
		code := 130
		if s, ok := sig.(syscall.Signal); ok {
			code = 128 + int(s)
		}
		os.Exit(code)
	}
}
