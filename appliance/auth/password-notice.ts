/**
 * Telling the operator a new admin password (first start, `pithead reset-password`). It is shown only
 * on a terminal: under systemd stdout is the journal, which more people can read and which is kept for
 * months, so there the lines say where the password is (DATA/initial-password, 0600) instead.
 */
export function announcePassword(
  say: (line: string) => void,
  /** e.g. `New admin password for "admin"` */
  intro: string,
  password: string,
  file: string,
  terminal: boolean = process.stdout.isTTY === true,
): void {
  if (terminal) {
    say(`${intro}: ${password}`);
    say(`(also kept in ${file} until it is changed)`);
  } else {
    say(
      `${intro}: in ${file} (readable by this service's user only; not printed, as this output is not a terminal)`,
    );
  }
}
