/**
 * Where a benchmark run's CPU went, from /proc (Linux): the API's processes (a process and its
 * descendants), PostgreSQL's (every process named `postgres`), the load generator's (a child this
 * process waited for: its own cutime/cstime), and the whole machine's busy time. Elsewhere than
 * Linux every figure is null and the bench prints none.
 */
import fs from 'node:fs';

const TICK_US = 10_000; // USER_HZ is 100 on Linux

interface Stat {
  pid: number;
  comm: string;
  ppid: number;
  /** utime + stime, ticks */
  cpu: number;
  /** cutime + cstime (children waited for), ticks */
  children: number;
}

function readStat(pid: number | 'self'): Stat | null {
  try {
    const s = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // comm may hold spaces and parentheses: the fields after it start past the last ')'.
    const close = s.lastIndexOf(')');
    const f = s.slice(close + 2).split(' ');
    return { pid: Number(s.slice(0, s.indexOf(' '))), comm: s.slice(s.indexOf('(') + 1, close), ppid: Number(f[1]), cpu: Number(f[11]) + Number(f[12]), children: Number(f[13]) + Number(f[14]) };
  } catch {
    return null; // gone, or not Linux
  }
}

function allStats(): Stat[] {
  let names: string[];
  try {
    names = fs.readdirSync('/proc').filter((n) => /^\d+$/.test(n));
  } catch {
    return [];
  }
  return names.map((n) => readStat(Number(n))).filter((s): s is Stat => s !== null);
}

function machineBusy(): number | null {
  try {
    const cpu = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal
    return cpu[0] + cpu[1] + cpu[2] + cpu[5] + cpu[6] + (cpu[7] ?? 0);
  } catch {
    return null;
  }
}

export interface CpuSample {
  api: number;
  postgres: number;
  waited: number;
  machine: number | null;
}

/** CPU ticks so far of the process tree under `apiPid`, of PostgreSQL, of waited-for children, of the machine. */
export function sampleCpu(apiPid: number): CpuSample {
  const stats = allStats();
  const tree = new Set([apiPid]);
  // Parents come before children in /proc's order only usually: repeat until no process joins.
  for (let grew = true; grew; ) {
    grew = false;
    for (const s of stats)
      if (!tree.has(s.pid) && tree.has(s.ppid)) {
        tree.add(s.pid);
        grew = true;
      }
  }
  let api = 0;
  let postgres = 0;
  for (const s of stats) {
    if (tree.has(s.pid)) api += s.cpu;
    else if (s.comm === 'postgres') postgres += s.cpu;
  }
  return { api, postgres, waited: readStat('self')?.children ?? 0, machine: machineBusy() };
}

/** Microseconds of CPU per request between two samples: API, PostgreSQL, load generator, machine. */
export function cpuPerRequest(a: CpuSample, b: CpuSample, requests: number) {
  if (b.machine === null || a.machine === null || !requests) return null;
  const us = (ticks: number) => Math.round((ticks * TICK_US) / requests);
  return { api: us(b.api - a.api), postgres: us(b.postgres - a.postgres), wrk: us(b.waited - a.waited), machine: us(b.machine - a.machine) };
}
