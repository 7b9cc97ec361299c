import { initialSchema } from "./001-initial.ts";
import { seriesSchema } from "./002-series.ts";
import { feeAuditSchema } from "./003-fee-audit.ts";
import { auditLogSchema } from "./004-audit-log.ts";
import { sessionAuthTimeSchema } from "./005-session-auth-time.ts";
import { deviceRatioKeySchema } from "./006-device-ratio-key.ts";
import { alertsSchema } from "./007-alerts.ts";
import { remotePinSchema } from "./008-remote-pin.ts";
import { remoteLastSeenSchema } from "./009-remote-last-seen.ts";
import { poolNodeLedgerSchema } from "./010-poolnode-ledger.ts";
import { poolNodeSubaccountsSchema } from "./011-poolnode-subaccounts.ts";
import { poolNodePortsSchema } from "./012-poolnode-ports.ts";
import { poolNodeGroupPortsSchema } from "./013-poolnode-group-ports.ts";

export interface Migration {
  version: number;
  sql: string;
}

/** Numbered, append-only: never edit a migration that has shipped, add the next one. */
export const MIGRATIONS: Migration[] = [
  { version: 1, sql: initialSchema },
  { version: 2, sql: seriesSchema },
  { version: 3, sql: feeAuditSchema },
  { version: 4, sql: auditLogSchema },
  { version: 5, sql: sessionAuthTimeSchema },
  { version: 6, sql: deviceRatioKeySchema },
  { version: 7, sql: alertsSchema },
  { version: 8, sql: remotePinSchema },
  { version: 9, sql: remoteLastSeenSchema },
  { version: 10, sql: poolNodeLedgerSchema },
  { version: 11, sql: poolNodeSubaccountsSchema },
  { version: 12, sql: poolNodePortsSchema },
  { version: 13, sql: poolNodeGroupPortsSchema },
];
