/**
 * Where a benchmark run's CPU went, from /proc (Linux): the API's processes (a process and its
 * descendants), PostgreSQL's (every process named `postgres`), the load generator's (a child this
 * process waited for: its own cutime/cstime), and the whole machine's busy time. Elsewhere than
 * Linux every figure is null and the bench prints none.
 *
 * Why a process's figure is utime + stime + cutime + cstime (issue 52): PostgreSQL's backends come
 * and go during a run (the pool opens and closes connections). A backend that ended between two
 * samples took its CPU out of the sum of the live ones — the figure could fall, and the bench
 * printed negative PostgreSQL CPU per request. When the postmaster reaps it, the kernel adds the
 * child's CPU to the postmaster's cutime/cstime, so summing each process's own and its reaped
 * children's time makes the total only grow. (A process ended and not yet reaped is missed for that
 * one sample; a difference is never below zero.)
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

/** The processes under `root` (and itself): parents come before children in /proc's order only usually, so repeat until none joins. */
function treeOf(stats: Stat[], root: number): Set<number> {
  const tree = new Set([root]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const s of stats)
      if (!tree.has(s.pid) && tree.has(s.ppid)) {
        tree.add(s.pid);
        grew = true;
      }
  }
  return tree;
}

/**
 * The postmaster of the PostgreSQL server a connection is on (the parent of its backend,
 * `SELECT pg_backend_pid()`), when that server runs on this machine; null otherwise.
 */
export function postmasterOf(backendPid: number): number | null {
  const s = readStat(backendPid);
  return s && s.comm === 'postgres' ? s.ppid : null;
}

/**
 * CPU ticks so far of the process tree under `apiPid`, of PostgreSQL, of waited-for children, of
 * the machine. PostgreSQL: the tree under `postmasterPid` when given — the bench's own server, not
 * the other servers of a shared machine —, else every process named `postgres`.
 */
export function sampleCpu(apiPid: number, postmasterPid?: number | null): CpuSample {
  const stats = allStats();
  const tree = treeOf(stats, apiPid);
  const pgTree = postmasterPid ? treeOf(stats, postmasterPid) : null;
  let api = 0;
  let postgres = 0;
  for (const s of stats) {
    if (tree.has(s.pid)) api += s.cpu + s.children;
    else if (pgTree ? pgTree.has(s.pid) : s.comm === 'postgres') postgres += s.cpu + s.children;
  }
  return { api, postgres, waited: readStat('self')?.children ?? 0, machine: machineBusy() };
}

/** Microseconds of CPU per request between two samples: API, PostgreSQL, load generator, machine. */
export function cpuPerRequest(a: CpuSample, b: CpuSample, requests: number) {
  if (b.machine === null || a.machine === null || !requests) return null;
  // Never below zero: a process tree that lost a member between the samples (ended, not yet reaped) counts 0, not less.
  const us = (ticks: number) => Math.round((Math.max(0, ticks) * TICK_US) / requests);
  return { api: us(b.api - a.api), postgres: us(b.postgres - a.postgres), wrk: us(b.waited - a.waited), machine: us(b.machine - a.machine) };
}
