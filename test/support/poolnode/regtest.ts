/**
 * Two real litecoind nodes in regtest for the pool-node tests (Debian's litecoind, installed by
 * `make testlibs`). Two, because litecoind answers getblocktemplate only while it has a peer. Each
 * node gets free 127.0.0.1 ports and a temporary datadir; the pool's node has a wallet whose coinbase
 * matured (101 blocks), and the peer a wallet of its own ("miners") so that payouts are seen arriving
 * at a wallet that is not the one paying. Everything the tests assert about the chain is asked with litecoin-cli, not
 * with the pool's own RPC client.
 */
import { createHmac, randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { freePort } from "../appliance.ts";
import { untilAsync } from "../stratum/port-fixture.ts";

export interface RegtestNode {
  datadir: string;
  rpcPort: number;
  p2pPort: number;
  proc: Subprocess<"ignore", "ignore", "pipe">;
}

/**
 * Debian's `litecoind` is a shell wrapper that first makes ~/.litecoin with a default config; two
 * nodes started together race on that mkdir on a machine where it does not exist yet, and one dies
 * ("cannot create directory: File exists"). Every node here has its own -datadir, so the daemon
 * behind the wrapper is started directly.
 */
const LITECOIND = existsSync("/usr/lib/litecoin/litecoind") ? "/usr/lib/litecoin/litecoind" : "litecoind";

function startNode(extra: string[]): RegtestNode {
  const datadir = mkdtempSync(join(tmpdir(), "pithead-ltc-"));
  const rpcPort = freePort();
  const p2pPort = freePort();
  const proc = Bun.spawn(
    [
      LITECOIND,
      "-regtest",
      "-server",
      `-datadir=${datadir}`,
      "-rpcbind=127.0.0.1",
      "-rpcallowip=127.0.0.1",
      `-rpcport=${rpcPort}`,
      // the peer connects out only (-listen=0 refuses -bind)
      ...(extra.includes("-listen=0") ? [] : ["-bind=127.0.0.1", `-port=${p2pPort}`]),
      "-printtoconsole=0",
      "-fallbackfee=0.0001",
      ...extra,
    ],
    { stdin: "ignore", stdout: "ignore", stderr: "pipe" },
  );
  return { datadir, rpcPort, p2pPort, proc };
}

/** litecoin-cli against a node; the daemon's own answer as text (JSON for most calls). */
export async function cli(node: RegtestNode, ...args: string[]): Promise<string> {
  const p = Bun.spawn(
    ["litecoin-cli", "-regtest", `-datadir=${node.datadir}`, `-rpcport=${node.rpcPort}`, ...args],
    { stdout: "pipe", stderr: "pipe" },
  );
  const [out, err, code] = await Promise.all([
    new Response(p.stdout).text(),
    new Response(p.stderr).text(),
    p.exited,
  ]);
  if (code !== 0) throw new Error(`litecoin-cli ${args.join(" ")}: ${err.trim()}`);
  return out.trim();
}

export const cliJson = async <T>(node: RegtestNode, ...args: string[]): Promise<T> =>
  JSON.parse(await cli(node, ...args)) as T;

async function answers(node: RegtestNode): Promise<boolean> {
  if (node.proc.exitCode !== null)
    throw new Error(`litecoind exited: ${await new Response(node.proc.stderr).text()}`);
  return cli(node, "getblockcount").then(
    () => true,
    () => false,
  );
}

/**
 * A test that waits on the chain — 100 blocks to mature a coinbase, a payout relayed to the peer node
 * (litecoind delays announcing a transaction to a peer by a random few seconds) — takes longer than
 * bun's 5-second default.
 */
export const CHAIN_TEST_MS = 60_000;

/** The pool's node also accepts this user/password (as -rpcauth, beside its cookie). */
export const RPC_USER = "pithead";
export const RPC_PASSWORD = randomBytes(12).toString("hex");

/** -rpcauth's format: user:salt$HMAC-SHA256(key = salt, message = password). */
function rpcAuth(user: string, password: string): string {
  const salt = randomBytes(16).toString("hex");
  return `${user}:${salt}$${createHmac("sha256", salt).update(password).digest("hex")}`;
}

export interface PeerTransaction {
  details: { address: string; amount: number; category: string }[];
}

export class RegtestPair {
  private constructor(
    /** the pool's node: wallet, RPC */
    readonly node: RegtestNode,
    /** its peer, only there so that getblocktemplate answers */
    readonly peer: RegtestNode,
    /** an address of the node's wallet, holding the matured coinbase of block 1 */
    readonly walletAddress: string,
  ) {}

  get rpcUrl(): string {
    return `http://127.0.0.1:${this.node.rpcPort}/`;
  }

  get cookieFile(): string {
    return join(this.node.datadir, "regtest", ".cookie");
  }

  static async start(): Promise<RegtestPair> {
    const node = startNode(["-listen=1", `-rpcauth=${rpcAuth(RPC_USER, RPC_PASSWORD)}`]);
    const peer = startNode(["-listen=0", `-connect=127.0.0.1:${node.p2pPort}`]);
    try {
      await untilAsync(() => answers(node));
      await untilAsync(() => answers(peer));
      await cli(node, "createwallet", "pool");
      await cli(peer, "createwallet", "miners");
      const address = await cli(node, "getnewaddress");
      await cli(node, "generatetoaddress", "101", address);
      await untilAsync(async () => Number(await cli(node, "getconnectioncount")) > 0);
      return new RegtestPair(node, peer, address);
    } catch (e) {
      await Promise.all([stopNode(node), stopNode(peer)]);
      throw e;
    }
  }

  /**
   * The transaction as the peer's wallet holds it, once litecoind has relayed it there (it delays
   * announcing a transaction to a peer by a random few seconds, so a payout just sent is not there yet).
   */
  async peerReceives(txid: string): Promise<PeerTransaction> {
    let tx: PeerTransaction | undefined;
    await untilAsync(async () => {
      tx = await cliJson<PeerTransaction>(this.peer, "gettransaction", txid).catch(() => undefined);
      return tx !== undefined;
    });
    return tx as PeerTransaction;
  }

  async stop(): Promise<void> {
    await Promise.all([stopNode(this.node), stopNode(this.peer)]);
  }
}

async function stopNode(node: RegtestNode): Promise<void> {
  if (node.proc.exitCode === null) {
    await cli(node, "stop").catch(() => node.proc.kill("SIGKILL"));
    await node.proc.exited;
  }
  rmSync(node.datadir, { recursive: true, force: true });
}
