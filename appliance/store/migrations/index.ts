import { initialSchema } from "./001-initial.ts";

export interface Migration {
  version: number;
  sql: string;
}

/** Numbered, append-only: never edit a migration that has shipped, add the next one. */
export const MIGRATIONS: Migration[] = [{ version: 1, sql: initialSchema }];
