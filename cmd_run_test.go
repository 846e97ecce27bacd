package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRunNotebookOptionsAfterFile(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "nb.ipynb")
	nb := `{"nbformat": 4, "nbformat_minor": 5, "metadata": {},
	 "cells": [{"cell_type": "code", "id": "c1", "metadata": {}, "execution_count": null, "outputs": [],
	            "source": ["x := 6\n", "x * 7"]}]}`
	if err := os.WriteFile(src, []byte(nb), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{src, "--out", filepath.Join(dir, "after.ipynb")},
		{"--out", filepath.Join(dir, "before.ipynb"), src},
	} {
		if err := runRun(args); err != nil {
			t.Fatalf("grundy run %v: %v", args, err)
		}
	}
	for _, name := range []string{"after.ipynb", "before.ipynb"} {
		raw, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		var got struct {
			Cells []struct {
				Outputs []struct {
					Data map[string]any `json:"data"`
				} `json:"outputs"`
			} `json:"cells"`
		}
		if err := json.Unmarshal(raw, &got); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(got.Cells) != 1 || len(got.Cells[0].Outputs) != 1 || got.Cells[0].Outputs[0].Data["text/plain"] != "42" {
			t.Errorf("%s: outputs %s, want one result 42", name, raw)
		}
	}
	err := runRun([]string{src, "extra"})
	if err == nil || !strings.Contains(err.Error(), "takes no arguments") {
		t.Errorf("a stray argument after a notebook: error %v, want 'takes no arguments'", err)
	}
}
