/** A new password typed twice (sign-up, password reset): the two fields and the check that they match. */
import { useState } from "react";
import { Field } from "./parts.tsx";

/** The words for a repeated password that differs (PasswordConfirmationMismatch's message). */
export const PASSWORDS_DO_NOT_MATCH = "Passwords do not match.";

/** `label`: the first field's label ("Password", "New password"); `repeat: false` asks once. */
export function useNewPassword(label: string, { repeat: repeated = true }: { repeat?: boolean } = {}) {
  const [password, setPassword] = useState("");
  const [repeat, setRepeat] = useState("");
  return {
    password,
    /** What to tell the user when the two differ, else null. */
    mismatch: !repeated || password === repeat ? null : PASSWORDS_DO_NOT_MATCH,
    fields: (
      <>
        <Field
          label={label}
          type="password"
          autoComplete="new-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        {repeated ? (
          <Field
            label="Repeat password"
            type="password"
            autoComplete="new-password"
            required
            value={repeat}
            onChange={(e) => setRepeat(e.target.value)}
          />
        ) : null}
      </>
    ),
  };
}
