/** Port calls of spec §7. */
import { del, get, post } from "./api.ts";
import type { PortItem, PortPayload } from "./port-types.ts";

export const listPorts = () => get<{ items: PortItem[] }>("/api/ports").then((r) => r.items ?? []);
export const getPort = (id: number) => get<PortItem>(`/api/port/${id}`);
export const startPort = (id: number, quiet = false) => post(`/api/port/${id}/start`, {}, { quiet });
export const stopPort = (id: number, quiet = false) => post(`/api/port/${id}/stop`, {}, { quiet });
export const deletePort = (id: number, quiet = false) => del(`/api/port/${id}`, undefined, { quiet });

/** Create or edit; a reply id of -1 means failure (spec §4). */
export async function savePort(p: PortPayload): Promise<number> {
  const path = p.id !== undefined ? `/api/port/${p.id}` : "/api/port/new";
  const r = await post<{ id: number } | number>(path, p);
  const id = typeof r === "number" ? r : r.id;
  if (id === -1) throw new Error("create error");
  return id;
}
