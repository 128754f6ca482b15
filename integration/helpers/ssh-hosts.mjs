// Real OpenSSH "hosts" for the tests and the bench: one private network namespace (held by a
// parked process) whose loopback carries one sshd per host, each on its own port, with host and
// user keys made for this run. Each host's sshd forces the remote side's HOME, XDG dirs,
// fleetcom dirs, agent homes, TMUX_TMPDIR and PATH (the built fleetcom first) into that host's
// own sandbox dir, so nothing a remote command does touches a real home or the default tmux
// server. The local side reaches them with `sshCommand` (FLEETCOM_SSH_COMMAND): nsenter into the
// namespace, then ssh with this run's own config (-F), known_hosts and key, never ~/.ssh.
//
// Measured pitfalls this follows: ssh reads ~/.ssh from the passwd home, not $HOME (hence -F and
// every file named in it); sshd honours only the first SetEnv line (every variable is on one);
// sshd needs /run/sshd; the session starts in the passwd home (the remote fleetcom shim cds to
// $HOME first); sshd and the ssh masters rewrite their argv, so processes are found by pid
// (the sshd pid files and their children), never by a name.
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeSandboxDirs, sandboxEnv } from './sandbox-env.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const cli = join(root, 'dist', 'cli.js');
const fakes = join(root, 'integration', 'fixtures', 'bin');
const FIRST_PORT = 2201;

/** Why OpenSSH hosts cannot be made here, or null when they can. */
export function sshHostsUnavailable() {
  if (process.getuid?.() !== 0) return 'not running as root (unshare -n and sshd need it)';
  for (const [program, pkg] of [['/usr/sbin/sshd', 'openssh-server'], ['ssh', 'openssh-client'], ['ssh-keygen', 'openssh-client'], ['unshare', 'util-linux'], ['nsenter', 'util-linux'], ['ip', 'iproute2']]) {
    if (!onPath(program)) return `${program} is not installed (${pkg})`;
  }
  try {
    execFileSync('unshare', ['-n', 'true'], { stdio: 'ignore' });
  } catch {
    return 'no private network namespace here (unshare -n failed)';
  }
  return null;
}

function onPath(program) {
  if (program.startsWith('/')) return existsSync(program);
  return (process.env.PATH ?? '/usr/bin:/bin').split(':').some((d) => d !== '' && existsSync(join(d, program)));
}

/** pids whose parent is `pid`, and theirs, from /proc. */
function descendants(pid) {
  const children = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
    } catch {
      // gone meanwhile
    }
  }
  const out = [];
  const walk = (p) => {
    for (const child of children.get(p) ?? []) {
      out.push(child);
      walk(child);
    }
  };
  walk(pid);
  return out;
}

function signal(pids, sig) {
  for (const pid of pids) {
    try {
      process.kill(pid, sig);
    } catch {
      // already gone
    }
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function until(what, fn, timeout = 20_000) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const value = fn();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/**
 * Starts `names.length` hosts under `dir` (which must exist). Each host gets `dir/<name>/` as
 * its sandbox (the environment of sandbox-env.mjs, with FAKE_AGENT_LOG). Returns the hosts,
 * the local environment additions that reach them (FLEETCOM_SSH_COMMAND), and close().
 */
export async function startSshHosts(dir, names = ['alpha', 'beta']) {
  const nsHolder = spawn('unshare', ['-n', 'sh', '-c', 'ip link set lo up && echo ready && exec sleep 100000'], { stdio: ['ignore', 'pipe', 'inherit'] });
  let said = '';
  nsHolder.stdout.on('data', (d) => (said += d));
  await until('the network namespace', () => said.includes('ready') || nsHolder.exitCode !== null);
  if (!said.includes('ready')) throw new Error('unshare -n did not start');
  const netns = `--net=/proc/${nsHolder.pid}/ns/net`;
  const wrap = ['nsenter', netns, '--'];

  const keys = join(dir, 'ssh-keys');
  mkdirSync(keys, { recursive: true, mode: 0o700 });
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'fleetcom-test-host', '-f', join(keys, 'host')]);
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'fleetcom-test-user', '-f', join(keys, 'user')]);
  writeFileSync(join(keys, 'authorized_keys'), readFileSync(join(keys, 'user.pub')));
  const hostKey = readFileSync(join(keys, 'host.pub'), 'utf8').split(' ').slice(0, 2).join(' ');
  mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });

  // The built fleetcom as the remote hosts' `fleetcom`, started in $HOME like a real login.
  const remoteBin = join(dir, 'remote-bin');
  mkdirSync(remoteBin, { recursive: true });
  writeFileSync(join(remoteBin, 'fleetcom'), `#!/bin/sh\ncd "$HOME" || exit 1\nexec '${process.execPath}' '${cli}' "$@"\n`);
  chmodSync(join(remoteBin, 'fleetcom'), 0o755);

  const sshConfig = join(dir, 'ssh_config');
  const user = execFileSync('id', ['-un'], { encoding: 'utf8' }).trim();
  const hosts = names.map((name, i) => {
    const hostDir = join(dir, name);
    mkdirSync(hostDir, { recursive: true });
    makeSandboxDirs(hostDir);
    const env = { ...sandboxEnv(hostDir, fakes), FAKE_AGENT_LOG: join(hostDir, 'agents.log') };
    env.PATH = `${remoteBin}:${env.PATH}`;
    const port = FIRST_PORT + i;
    const pidFile = join(dir, `sshd-${name}.pid`);
    const config = join(dir, `sshd-${name}.conf`);
    writeFileSync(config, [
      `Port ${port}`, 'ListenAddress 127.0.0.1', `HostKey ${join(keys, 'host')}`, `PidFile ${pidFile}`,
      `AuthorizedKeysFile ${join(keys, 'authorized_keys')}`, 'StrictModes no', 'UsePAM no', 'PermitRootLogin prohibit-password',
      'PasswordAuthentication no', 'KbdInteractiveAuthentication no', 'PermitUserRC no', 'PrintMotd no', 'PrintLastLog no',
      'X11Forwarding no', `AllowUsers ${user}`,
      // Only the first SetEnv counts: every variable on it.
      `SetEnv ${Object.entries(env).map(([k, v]) => `${k}=${v}`).join(' ')}`,
      '',
    ].join('\n'));
    return { name, port, dir: hostDir, env, pidFile, config, log: join(dir, `sshd-${name}.log`) };
  });
  writeFileSync(sshConfig, [
    ...hosts.flatMap((h) => [`Host ${h.name}`, '  HostName 127.0.0.1', `  Port ${h.port}`]),
    'Host *', `  User ${user}`, `  IdentityFile ${join(keys, 'user')}`, '  IdentitiesOnly yes', '  IdentityAgent none',
    `  UserKnownHostsFile ${join(keys, 'known_hosts')}`, '  GlobalKnownHostsFile /dev/null', '  StrictHostKeyChecking yes',
    '  ConnectTimeout 5', '',
  ].join('\n'));
  writeFileSync(join(keys, 'known_hosts'), hosts.map((h) => `[127.0.0.1]:${h.port} ${hostKey}\n`).join(''));

  const listener = (h) => (existsSync(h.pidFile) ? Number(readFileSync(h.pidFile, 'utf8').trim()) : null);
  const startSshd = async (h) => {
    execFileSync('nsenter', [netns, '--', '/usr/sbin/sshd', '-f', h.config, '-E', h.log]);
    await until(`sshd of ${h.name}`, () => listener(h) !== null);
  };
  for (const h of hosts) await startSshd(h);

  const sshCommand = ['nsenter', netns, 'ssh', '-F', sshConfig];
  const all = (h) => {
    const pid = listener(h);
    return pid === null ? [] : [pid, ...descendants(pid)];
  };
  const api = {
    wrap,
    sshConfig,
    sshCommand,
    /** For the local fleetcom's environment. */
    localEnv: { FLEETCOM_SSH_COMMAND: sshCommand.join(' ') },
    hosts: Object.fromEntries(hosts.map((h) => [h.name, {
      ...h,
      /** Stops the host: its sshd and every connection it serves (their masters then end). */
      stop() {
        const pids = all(h);
        signal(pids, 'SIGKILL');
        try {
          execFileSync('rm', ['-f', h.pidFile]);
        } catch {
          // fine
        }
      },
      async start() {
        await startSshd(h);
      },
      /** The host stops answering but keeps its connections open: a dropped network. */
      freeze() {
        signal(all(h), 'SIGSTOP');
      },
      thaw() {
        signal(all(h), 'SIGCONT');
      },
      /** The tmux server of this host's default socket (where `fleetcom up --detach` puts the fleet). */
      tmuxSocket: join(h.env.TMUX_TMPDIR, `tmux-${process.getuid?.() ?? 0}`, 'default'),
    }])),
    close() {
      for (const h of hosts) {
        const pids = all(h);
        signal(pids, 'SIGCONT');
        signal(pids, 'SIGKILL');
        try {
          execFileSync('tmux', ['-S', api.hosts[h.name].tmuxSocket, 'kill-server'], { stdio: 'ignore' });
        } catch {
          // no server
        }
      }
      nsHolder.kill('SIGKILL');
    },
  };
  return api;
}
