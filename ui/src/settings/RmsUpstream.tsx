import { Field } from "../components/Field.tsx";
import { t } from "../lib/i18n.ts";
import { INPUT } from "../lib/ui.ts";

/** GET/POST /api/rms/upstream: "********" when a password is set, which sent back keeps it. */
export interface RmsUpstream {
  password: string;
}

/**
 * The farm side of appliance chaining, under the server-side settings it must not be confused with:
 * the RMS password this appliance presents to the tunnel ports its RMS2/RMS3 pools reach. It comes
 * back masked; left alone, the mask goes back with the section's Save and the stored one stays.
 */
export function RmsUpstreamField({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  return (
    <Field label={t("rms.upstream_password")} hint={t("rms.upstream_password_hint")} class="sm:col-span-2">
      <input
        class={INPUT}
        type="password"
        name="rms-upstream-password"
        autocomplete="new-password"
        value={value}
        onInput={(e) => onChange(e.currentTarget.value)}
      />
    </Field>
  );
}
