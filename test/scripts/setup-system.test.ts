import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/reference.js';

/**
 * scripts/setup-system.sh against stand-in commands on a PATH of its own (no network, no real
 * install): which branch it takes when prometheus or chromium is present or missing, as root or not.
 */
const script = join(repoRoot, 'scripts/setup-system.sh');
let dir = '';
afterEach(() => {
  if (dir !== '') rmSync(dir, { recursive: true, force: true });
  dir = '';
});

function fakeBin(options: { uid: number; prometheus: boolean; chromium?: boolean; sudo: boolean }): { bin: string; log: string } {
  dir = mkdtempSync(join(tmpdir(), 'vbstream-setup-'));
  const bin = join(dir, 'bin');
  const log = join(dir, 'calls.log');
  spawnSync('/bin/mkdir', [bin]);
  const tool = (name: string, body: string): void => {
    writeFileSync(join(bin, name), `#!/bin/sh\n${body}\n`);
    chmodSync(join(bin, name), 0o755);
  };
  for (const name of ['env', 'head']) symlinkSync(`/usr/bin/${name}`, join(bin, name));
  tool('id', `echo ${options.uid}`);
  const fake = (name: string, version: string) => `printf "#!/bin/sh\\necho '${version} (fake)'\\n" > ${bin}/${name}; /bin/chmod +x ${bin}/${name}`;
  tool('apt-get', `echo "apt-get DEBIAN_FRONTEND=$DEBIAN_FRONTEND $*" >> ${log}\ncase "$*" in *install*)\n  case "$*" in *prometheus*) ${fake('prometheus', 'prometheus, version 2.42.0+ds')};; esac\n  case "$*" in *chromium*) ${fake('chromium', 'Chromium 142.0')};; esac;;\nesac`);
  tool('service', `echo "service $*" >> ${log}`);
  if (options.sudo) tool('sudo', `echo "sudo $1" >> ${log}\nshift\nexec "$@"`);
  if (options.prometheus) tool('prometheus', "echo 'prometheus, version 2.42.0+ds'");
  if (options.chromium ?? true) tool('chromium', "echo 'Chromium 142.0'");
  return { bin, log };
}

const run = (bin: string) => spawnSync('/bin/bash', [script], { env: { PATH: bin }, encoding: 'utf8' });
const calls = (log: string): string[] => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : []);

describe('scripts/setup-system.sh', () => {
  it('does nothing when prometheus and chromium are already on PATH', () => {
    const { bin, log } = fakeBin({ uid: 0, prometheus: true, sudo: false });
    const result = run(bin);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain('prometheus and chromium already installed');
    expect(calls(log)).toEqual([]);
  });

  it('as root, installs chromium alone when only it is missing (no service to stop)', () => {
    const { bin, log } = fakeBin({ uid: 0, prometheus: true, chromium: false, sudo: false });
    const result = run(bin);
    expect(result.status, result.stderr).toBe(0);
    expect(calls(log)).toEqual(['apt-get DEBIAN_FRONTEND=noninteractive update -q', 'apt-get DEBIAN_FRONTEND=noninteractive install -y -q --no-install-recommends chromium']);
    expect(result.stdout).toContain('Chromium 142.0 (fake)');
    expect(run(bin).stdout).toContain('already installed');
  });

  it('as root, installs both in one apt-get call when both are missing', () => {
    const { bin, log } = fakeBin({ uid: 0, prometheus: false, chromium: false, sudo: false });
    const result = run(bin);
    expect(result.status, result.stderr).toBe(0);
    expect(calls(log).slice(0, 2)).toEqual(['apt-get DEBIAN_FRONTEND=noninteractive update -q', 'apt-get DEBIAN_FRONTEND=noninteractive install -y -q --no-install-recommends prometheus chromium']);
  });

  it('as root, installs the package non-interactively without recommends, then stops any service it started', () => {
    const { bin, log } = fakeBin({ uid: 0, prometheus: false, sudo: false });
    const result = run(bin);
    expect(result.status, result.stderr).toBe(0);
    const expected = ['apt-get DEBIAN_FRONTEND=noninteractive update -q', 'apt-get DEBIAN_FRONTEND=noninteractive install -y -q --no-install-recommends prometheus'];
    if (!existsSync('/run/systemd/system')) expected.push('service prometheus stop');
    expect(calls(log)).toEqual(expected);
    expect(result.stdout).toContain('installed prometheus, version 2.42.0+ds (fake)');
    expect(run(bin).stdout).toContain('already installed');
  });

  it('not root: uses sudo -n when there is one, and fails clearly when there is none', () => {
    const withSudo = fakeBin({ uid: 1000, prometheus: false, sudo: true });
    const result = run(withSudo.bin);
    expect(result.status, result.stderr).toBe(0);
    expect(calls(withSudo.log).filter((c) => c.startsWith('sudo'))).toEqual(['sudo -n', 'sudo -n', ...(existsSync('/run/systemd/system') ? [] : ['sudo -n'])]);
    rmSync(dir, { recursive: true, force: true });

    const withoutSudo = fakeBin({ uid: 1000, prometheus: false, sudo: false });
    const refused = run(withoutSudo.bin);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain("install the Debian package(s) 'prometheus' as root");
    expect(calls(withoutSudo.log)).toEqual([]);
  });
});
