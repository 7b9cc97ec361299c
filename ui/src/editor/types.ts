import type { PortForm } from "../lib/port-form.ts";
import type { FieldError } from "../lib/validate/types.ts";

/** What every editor tab receives. */
export interface TabProps {
  form: PortForm;
  set: (patch: Partial<PortForm>) => void;
  errors: FieldError[];
}

export function errorFor(errors: FieldError[], field: string, row?: number): string | null {
  const e = errors.find((x) => x.field === field && x.row === row);
  return e ? e.key : null;
}
