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
	if temps.files == nil {
		temps.files = map[string]bool{}
		temps.sigs = make(chan os.Signal, 1)
		go removeTempsOnSignal()
	}
	// The signals are caught before the file exists: a signal between
	// the two would otherwise end the process and leave the file. One
	// caught meanwhile waits for the lock, and so finds the file.
	if len(temps.files) == 0 {
		signal.Notify(temps.sigs, os.Interrupt, syscall.SIGTERM)
	}
	f, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".tmp-*")
	if err != nil {
		if len(temps.files) == 0 {
			signal.Stop(temps.sigs)
		}
		return nil, err
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

// removeTempsOnSignal waits for SIGINT or SIGTERM, removes the temporary
// files and exits with 128 plus the signal's number.
func removeTempsOnSignal() {
	sig := <-temps.sigs
	// Held until exit: no file is put in place meanwhile. A signal caught
	// while no file exists (one failed to be created) ends the command all
	// the same, as it would have without the handler.
	temps.Lock()
	for name := range temps.files {
		os.Remove(name)
	}
	code := 130
	if s, ok := sig.(syscall.Signal); ok {
		code = 128 + int(s)
	}
	os.Exit(code)
}
