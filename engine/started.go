package engine

// WaitStarted returns once s is up, when s says it may still be starting
// (an engine process, which has a Wait method), with the error that kept
// it from starting. Completion and inspection asked while a user types
// do not wait: they answer nothing until the session is up. A cell that
// asks for documentation (?name) waits, as every cell waits for its
// session.
func WaitStarted(s Session) error {
	if w, ok := s.(interface{ Wait() error }); ok {
		return w.Wait()
	}
	return nil
}
