/**
 * A real Prometheus server (Debian's `prometheus`, installed by `make testlibs`) scraping one target
 * every second with a bearer token, on a free loopback port with its storage in a temp dir, and its
 * HTTP API's instant queries.
 */
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { freePort, tempDir } from "./appliance.ts";

export interface PromSample {
  metric: Record<string, string>;
  value: number;
}

export interface ScrapeTarget {
  /** host:port */
  address: string;
  path: string;
  bearer: string;
}

export class PrometheusServer {
  private constructor(
    private readonly proc: Subprocess<"ignore", "ignore", "pipe">,
    private readonly dir: string,
    readonly url: string,
  ) {}

  static async start(target: ScrapeTarget): Promise<PrometheusServer> {
    const dir = tempDir("pithead-prometheus-");
    const config = join(dir, "prometheus.yml");
    // JSON is YAML: no quoting rules to get wrong for the token.
    writeFileSync(
      config,
      JSON.stringify({
        global: { scrape_interval: "1s", scrape_timeout: "1s", evaluation_interval: "1s" },
        scrape_configs: [
          {
            job_name: "pithead",
            metrics_path: target.path,
            authorization: { type: "Bearer", credentials: target.bearer },
            static_configs: [{ targets: [target.address] }],
          },
        ],
      }),
    );
    const listen = `127.0.0.1:${freePort()}`;
    const proc = Bun.spawn(
      [
        "prometheus",
        `--config.file=${config}`,
        `--storage.tsdb.path=${join(dir, "data")}`,
        `--web.listen-address=${listen}`,
        "--log.level=warn",
      ],
      { stdin: "ignore", stdout: "ignore", stderr: "pipe", cwd: dir },
    );
    const server = new PrometheusServer(proc, dir, `http://${listen}`);
    await server.until("Prometheus ready", async () => {
      if (proc.exitCode !== null)
        throw new Error(`prometheus exited: ${await new Response(proc.stderr).text()}`);
      const res = await fetch(`${server.url}/-/ready`).catch(() => null);
      return res?.status === 200;
    });
    return server;
  }

  /** An instant query at `time` (epoch ms; now when unset); a failed query throws with Prometheus' error. */
  async query(promql: string, time?: number): Promise<PromSample[]> {
    const params = new URLSearchParams({ query: promql });
    if (time !== undefined) params.set("time", String(time / 1000));
    const res = await fetch(`${this.url}/api/v1/query?${params}`);
    const body = (await res.json()) as {
      status: string;
      error?: string;
      data?: { resultType: string; result: { metric: Record<string, string>; value: [number, string] }[] };
    };
    if (body.status !== "success" || body.data?.resultType !== "vector")
      throw new Error(`query ${promql}: ${body.error ?? JSON.stringify(body)}`);
    return body.data.result.map((r) => ({ metric: r.metric, value: Number(r.value[1]) }));
  }

  /** The health of the one scrape target: "up", "down" or "unknown", and its last error. */
  async target(): Promise<{ health: string; lastError: string }> {
    const res = await fetch(`${this.url}/api/v1/targets`);
    const body = (await res.json()) as { data: { activeTargets: { health: string; lastError: string }[] } };
    const t = body.data.activeTargets[0];
    return { health: t?.health ?? "unknown", lastError: t?.lastError ?? "" };
  }

  /** Polls `ready` every 200 ms until it holds, for at most `timeoutMs`. */
  async until(what: string, ready: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (await ready()) return;
      await Bun.sleep(200);
    }
    throw new Error(`timed out waiting for ${what}`);
  }

  async stop(): Promise<void> {
    this.proc.kill("SIGKILL");
    await this.proc.exited;
    rmSync(this.dir, { recursive: true, force: true });
  }
}
