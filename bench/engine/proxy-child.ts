/**
 * The proxy under test, in its own process so that its memory is measured alone. Reads a Port as
 * JSON from argv, starts an Engine, prints "READY <port>", then answers "mem", "stats",
 * "snap <file>" (a heap snapshot after a full GC), "stalls-start"/"stalls" (stall-meter.ts) and
 * "count-start"/"count" (allocation-count.ts) on stdin.
 * An optional second argument, a TimeScale (scaled-clock.ts), runs the fee scheduler on scaled time.
 */
import type { Port } from "../../appliance/domain/port.ts";
import { Engine } from "../../appliance/engine/engine.ts";
import { AllocationCounter } from "./allocation-count.ts";
import { scaledClock, type TimeScale } from "./scaled-clock.ts";
import { StallMeter } from "./stall-meter.ts";

const port = JSON.parse(process.argv[2] ?? "{}") as Port;
const scaled = process.argv[3] ? (JSON.parse(process.argv[3]) as TimeScale) : null;
const engine = new Engine({
  tls: () => {
    throw new Error("no TLS in benchmarks");
  },
  isIpBanned: () => false,
  isWalletBanned: () => false,
  log: () => {},
  listenHostname: "127.0.0.1",
  timing: { floodLinesPerSecond: 1_000_000, feeIdleMs: 60_000, ...scaled?.timing },
  ...(scaled ? { clock: scaledClock(scaled) } : {}),
});
await engine.apply(port);
process.stdout.write(`READY ${engine.running(port.id)?.boundPort ?? 0}\n`);

const stalls = new StallMeter();
const allocations = new AllocationCounter();
const decoder = new TextDecoder();
for await (const chunk of Bun.stdin.stream()) {
  for (const cmd of decoder.decode(chunk).split("\n")) {
    if (cmd === "mem") {
      Bun.gc(true);
      const m = process.memoryUsage();
      process.stdout.write(`MEM ${m.rss} ${m.heapUsed}\n`);
    } else if (cmd.startsWith("snap ")) {
      Bun.gc(true);
      await Bun.write(cmd.slice(5), JSON.stringify(Bun.generateHeapSnapshot()));
      process.stdout.write("SNAP\n");
    } else if (cmd === "count-start") {
      allocations.start();
      process.stdout.write("COUNTING\n");
    } else if (cmd === "count") {
      process.stdout.write(`COUNT ${JSON.stringify(allocations.stop())}\n`);
    } else if (cmd === "stats") {
      process.stdout.write(`STATS ${JSON.stringify(engine.live.portStats(port.id))}\n`);
    } else if (cmd === "stalls-start") {
      stalls.start();
    } else if (cmd === "stalls") {
      process.stdout.write(`STALLS ${JSON.stringify(stalls.stop())}\n`);
    } else if (cmd === "exit") {
      await engine.shutdown();
      process.exit(0);
    }
  }
}
// stdin closed: the benchmark that started this proxy is gone (a stuck scenario exits without
// "exit"), and an orphaned proxy would hold its port and memory
await engine.shutdown();
process.exit(0);
