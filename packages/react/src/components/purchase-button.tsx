/**
 * A button that sends the signed-in user (or, given `team`, that team) to
 * the purchase page of a product: it makes a checkout URL and navigates
 * there. A refusal (unknown product, already owned) shows beside it.
 */
import type { Team } from "@latchkey/js";
import type { ReactNode } from "react";
import { useUser } from "../use-user.ts";
import { Alert, useAction } from "./parts.tsx";

export interface PurchaseButtonProps {
  productId: string;
  /** Buy for this team rather than the user (the user needs `team_admin` in it). */
  team?: Team;
  /** Where the purchase page leads back to (a trusted domain of the project); this page by default. */
  returnUrl?: string;
  children?: ReactNode;
}

export function PurchaseButton({ productId, team, returnUrl, children = "Buy" }: PurchaseButtonProps) {
  const user = useUser({ or: "redirect" });
  const go = useAction(async () => {
    const back = returnUrl ?? window.location.href;
    const url = await (team ?? user).createCheckoutUrl({ productId, returnUrl: back });
    // The server made this URL (its dashboard's purchase page), another origin than the app's own pages.
    window.location.assign(url);
  });
  return (
    <span className="lk-purchase-button">
      <button type="button" className="lk-button" disabled={go.busy} onClick={() => void go.run()}>
        {children}
      </button>
      <Alert>{go.error}</Alert>
    </span>
  );
}
