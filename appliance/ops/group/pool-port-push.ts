/**
 * "All servers under this node get the port" (spec §8): a pool-node port created on the node is
 * created on every group member this node controls, as a proxy port whose pool is the node's port,
 * and removed from them with it (docs/pool-node.md "Group control"). The members accept these calls
 * from the group-control token because the port's category is `poolnode` (web/api/ports.ts).
 */
import type { PoolGroupPortStore } from "../../store/poolnode-group-ports.ts";
import type { RemoteClient, RemoteClientStore } from "../../store/remote-clients.ts";
import { callRemote, RemoteCallError } from "./remote-call.ts";

/** One member's answer: the proxy port it made (or removed), or why not. */
export interface PushResult {
  remote: number;
  remark: string;
  /** the member's port id */
  id?: number;
  /** a catalogue key (the member's own refusal, or why it was not reached) and its detail */
  error?: string;
  detail?: string;
}

interface Stores {
  remotes: RemoteClientStore;
  groupPorts: PoolGroupPortStore;
}

async function call(c: RemoteClient, method: string, path: string, body?: unknown): Promise<PushResult> {
  const done = { remote: c.id, remark: c.remark };
  try {
    const res = await callRemote(c, method, path, body === undefined ? undefined : JSON.stringify(body));
    const answer = (await res.json().catch(() => ({}))) as {
      id?: number;
      error?: { key?: string; detail?: string };
    };
    if (!res.ok)
      return { ...done, error: answer.error?.key ?? `HTTP ${res.status}`, detail: answer.error?.detail };
    return { ...done, id: answer.id };
  } catch (e) {
    if (e instanceof RemoteCallError) return { ...done, error: e.key, detail: e.message };
    return { ...done, error: "lang.remote.err_fetch", detail: String(e) };
  }
}

/** Creates the member port on every remote; each one made is remembered for the removal. */
export async function pushPort(stores: Stores, port: number, memberPort: unknown): Promise<PushResult[]> {
  const results = await Promise.all(
    stores.remotes.list().map((c) => call(c, "POST", "port/new", memberPort)),
  );
  for (const r of results)
    if (r.id !== undefined) stores.groupPorts.recordPush({ port, remote_id: r.remote, member_port_id: r.id });
  return results;
}

/** Removes the member ports made for this port (before the port itself is forgotten). */
export async function unpushPort(stores: Stores, port: number): Promise<PushResult[]> {
  return Promise.all(
    stores.groupPorts.pushesOf(port).flatMap((p) => {
      const c = stores.remotes.get(p.remote_id);
      return c === null
        ? []
        : [call(c, "DELETE", `port/${p.member_port_id}`).then((r) => ({ ...r, id: p.member_port_id }))];
    }),
  );
}
