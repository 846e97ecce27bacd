package kernel

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
)

// ConnectionInfo is the JSON file Jupyter hands a kernel on its command
// line: where to bind and how to sign.
type ConnectionInfo struct {
	Transport       string `json:"transport"`
	IP              string `json:"ip"`
	ShellPort       int    `json:"shell_port"`
	ControlPort     int    `json:"control_port"`
	StdinPort       int    `json:"stdin_port"`
	IOPubPort       int    `json:"iopub_port"`
	HBPort          int    `json:"hb_port"`
	Key             string `json:"key"`
	SignatureScheme string `json:"signature_scheme"`
	KernelName      string `json:"kernel_name,omitempty"`
}

// ReadConnectionFile loads and checks a connection file.
func ReadConnectionFile(path string) (*ConnectionInfo, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading connection file: %w", err)
	}
	return ParseConnectionInfo(b)
}

// ParseConnectionInfo decodes and checks connection-file JSON.
func ParseConnectionInfo(b []byte) (*ConnectionInfo, error) {
	var ci ConnectionInfo
	if err := json.Unmarshal(b, &ci); err != nil {
		return nil, fmt.Errorf("connection file is not valid JSON: %w", err)
	}
	if ci.Transport == "" {
		ci.Transport = "tcp"
	}
	if ci.Transport != "tcp" && ci.Transport != "ipc" {
		return nil, fmt.Errorf("connection file transport %q is not supported; use \"tcp\" or \"ipc\"", ci.Transport)
	}
	if ci.IP == "" {
		if ci.Transport == "ipc" {
			ci.IP = "kernel-ipc"
		} else {
			ci.IP = "127.0.0.1"
		}
	}
	if ci.SignatureScheme == "" {
		ci.SignatureScheme = "hmac-sha256"
	}
	if ci.Key != "" && ci.SignatureScheme != "hmac-sha256" {
		return nil, fmt.Errorf("signature_scheme %q is not supported; use \"hmac-sha256\"", ci.SignatureScheme)
	}
	for _, p := range []struct {
		name string
		port int
	}{{"shell_port", ci.ShellPort}, {"control_port", ci.ControlPort}, {"stdin_port", ci.StdinPort}, {"iopub_port", ci.IOPubPort}, {"hb_port", ci.HBPort}} {
		if p.port <= 0 || p.port > 65535 {
			return nil, fmt.Errorf("connection file %s = %d: want a port in 1..65535 (Jupyter writes one)", p.name, p.port)
		}
	}
	return &ci, nil
}

// endpoint is the zmq4 address for one port. The guarded transports (see
// guard.go) stand in for zmq4's own tcp and ipc; libzmq peers see plain
// TCP or Unix sockets either way.
func (ci *ConnectionInfo) endpoint(port int) string {
	if ci.Transport == "ipc" {
		return guardIPC + "://" + ci.ipcPath(port)
	}
	return guardTCP + "://" + joinHostPort(ci.IP, port)
}

// ipcPath follows jupyter_client: the "ip" field is a path prefix and each
// channel appends "-PORT".
func (ci *ConnectionInfo) ipcPath(port int) string {
	return ci.IP + "-" + strconv.Itoa(port)
}

func joinHostPort(ip string, port int) string {
	if ip == "*" {
		ip = "0.0.0.0"
	}
	for i := 0; i < len(ip); i++ {
		if ip[i] == ':' {
			return "[" + ip + "]:" + strconv.Itoa(port)
		}
	}
	return ip + ":" + strconv.Itoa(port)
}
