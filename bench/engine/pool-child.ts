/**
 * The test pool in a process of its own, for the latency scenario: with the pool beside the load
 * generator, a share through the proxy made the generator's one thread handle both the miner's and
 * the pool's side of every share, and its queueing counted as the proxy's. Reads TestPoolOptions as
 * JSON from argv, prints "READY <port>", stops on "exit" or when stdin closes.
 */
import { TestPool, type TestPoolOptions } from "../../test/support/stratum/test-pool.ts";

const pool = await TestPool.start(JSON.parse(process.argv[2] ?? "{}") as TestPoolOptions);
process.stdout.write(`READY ${pool.port}\n`);
const decoder = new TextDecoder();
for await (const chunk of Bun.stdin.stream()) if (decoder.decode(chunk).includes("exit")) break;
pool.stop();
process.exit(0);
