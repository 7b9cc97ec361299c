import type { SysStat } from "./sys-types.ts";

/** A remote instance as GET /api/remote/list answers it (token never included). */
export interface RemoteClient {
  id: number;
  address: string;
  remark: string;
  online: boolean;
  version?: { version: string };
  stat?: SysStat;
  error?: string;
}
