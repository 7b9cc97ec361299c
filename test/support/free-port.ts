/** Port numbers for the listeners tests create (proxy ports, pools, appliances spawned by a test). */

const handedOut = new Set<number>();
/**
 * Listener ports for tests come from below the kernel's ephemeral range (32768+ on Linux): an
 * outgoing connection's local port or a port-0 listener is never taken from there, so a number handed
 * out early (when a file loads) cannot become another socket's before the test binds it.
 */
const LOW = 10_000;
const HIGH = 32_000;

/**
 * A port number no listener on this machine holds right now, and not handed out before in this test
 * process: a closed proxy port holds no socket, so the number must not be offered again, which the
 * appliance would rightly refuse as a duplicate.
 */
export function freePort(): number {
  for (;;) {
    const p = LOW + Math.floor(Math.random() * (HIGH - LOW));
    if (handedOut.has(p)) continue;
    try {
      Bun.listen({ hostname: "127.0.0.1", port: p, socket: { data() {} } }).stop(true);
    } catch {
      continue; // held by a listener of this machine
    }
    handedOut.add(p);
    return p;
  }
}
