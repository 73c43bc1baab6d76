#!/usr/bin/python3
"""Runs a command under a unit's system call filter without systemd as init.

Usage: syscall_filter_exec.py UNIT-FILE COMMAND [ARG...]

Reads SystemCallFilter= and SystemCallErrorNumber= from UNIT-FILE, expands the sets as systemd does
(systemd-analyze syscall-filter; @default is always allowed), installs the allow list with libseccomp
(Debian package python3-seccomp) and execs COMMAND under it, so that a test can see the service's
process run with the filter systemd would give it. The caller sets no_new_privs first (setpriv
--no-new-privs), as NoNewPrivileges=yes does; the kernel requires it for an unprivileged filter.
"""
import errno
import os
import subprocess
import sys

import seccomp


def unit_setting(unit, key):
    values = []
    with open(unit, encoding="utf-8") as f:
        for line in f:
            if line.startswith(key + "="):
                values.extend(line.strip()[len(key) + 1:].split())
    return values


def syscall_sets():
    """Every set of systemd-analyze syscall-filter, by name: its system calls and nested sets."""
    sets, current = {}, None
    listing = subprocess.run(["systemd-analyze", "syscall-filter"], capture_output=True, text=True,
                             check=True).stdout
    for line in listing.splitlines():
        item = line.strip()
        if not item or item.startswith("#"):
            continue
        if line[0].isspace():
            sets[current].append(item)
        else:
            current = item
            sets[current] = []
    return sets


def expand(name, sets, seen):
    if name in seen:
        return set()
    seen.add(name)
    calls = set()
    for item in sets.get(name, []):
        calls |= expand(item, sets, seen) if item.startswith("@") else {item}
    return calls


def main():
    unit, command = sys.argv[1], sys.argv[2:]
    wanted = unit_setting(unit, "SystemCallFilter")
    if not wanted or any(w.startswith("~") for w in wanted):
        sys.exit(f"{unit}: expected an allow list in SystemCallFilter=, found {wanted}")
    error = (unit_setting(unit, "SystemCallErrorNumber") or ["EPERM"])[0]
    sets = syscall_sets()
    calls = expand("@default", sets, set())
    for item in wanted:
        calls |= expand(item, sets, set()) if item.startswith("@") else {item}
    flt = seccomp.SyscallFilter(defaction=seccomp.ERRNO(getattr(errno, error)))
    allowed = 0
    for call in sorted(calls):
        try:
            flt.add_rule(seccomp.ALLOW, call)
            allowed += 1
        except (RuntimeError, ValueError):
            pass  # a system call of another architecture (SystemCallArchitectures=native)
    flt.load()
    print(f"syscall_filter_exec: {' '.join(wanted)}: {allowed} system calls allowed, others fail with {error}",
          file=sys.stderr)
    os.execv(command[0], command)


if __name__ == "__main__":
    main()
