//go:build darwin || freebsd || netbsd || openbsd

package cms

import "syscall"

func changeTime(st *syscall.Stat_t) int64 { return st.Ctimespec.Nano() }
