import type { MachineScope } from "../auth/machine-tokens.ts";

/**
 * Who is calling, as the handler established it: an admin console session (its short id, and
 * whether its password was proved recently enough for a flagged route), a machine token with its one
 * scope, or nobody (the public login calls).
 */
export type Credential =
  | { kind: "admin"; session: string; fresh: boolean; authAgeMs: number }
  | { kind: MachineScope }
  | { kind: "public" };
