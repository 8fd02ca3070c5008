/**
 * The program that leads each process group flakeguard starts (`node -e GUARD_SOURCE -- cmd ...args`):
 * it runs the command in its own group with the guard's stdout and stderr, exits with the command's
 * code (or signal), and, when its stdin (a pipe held only by flakeguard) ends because flakeguard went
 * away, even by SIGKILL, kills the whole group: the command and every worker it started, after
 * removing the temp folders named by FLAKEGUARD_GUARD_CLEANUP, a JSON array (see spawnGuarded's
 * tempFolder and alsoRemove).
 */
export const GUARD_SOURCE = [
  "const { spawn } = require('node:child_process');",
  'const [cmd, ...args] = process.argv.slice(1);',
  // Temp folders flakeguard owns (FLAKEGUARD_GUARD_CLEANUP, a JSON array): removed before the group dies with it.
  'let cleanup = []; try { cleanup = JSON.parse(process.env.FLAKEGUARD_GUARD_CLEANUP || "[]"); } catch {}',
  'delete process.env.FLAKEGUARD_GUARD_CLEANUP;',
  "const removeTemp = () => { for (const f of cleanup) try { require('node:fs').rmSync(f, { recursive: true, force: true }); } catch {} };",
  'const killGroup = () => { removeTemp(); try { process.kill(-process.pid, "SIGKILL"); } catch { process.exit(137); } };',
  "process.stdin.on('end', killGroup).on('error', killGroup).resume();",
  "for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(s, killGroup);",
  "const child = spawn(cmd, args, { stdio: ['ignore', 'inherit', 'inherit'] });",
  "child.on('error', (e) => { process.stderr.write(String(e && e.message) + '\\n'); process.exit(127); });",
  "child.on('exit', (code, signal) => { if (signal) { process.removeAllListeners(signal); process.kill(process.pid, signal); } else process.exit(code ?? 1); });",
].join('\n');
