/**
 * How the project takes payments: test mode (purchases complete without
 * paying, the default), blocking new purchases, and the Stripe account real
 * payments go to, onboarded through the server's Stripe platform (Connect)
 * or reached with the project's own Stripe secret key; in test mode, the
 * test clock that moves the project's payments time forward.
 */
import { useConfig } from "@latchkey/react";
import { useCurrentProject } from "../../lib/owned-projects.tsx";
import { Card, Page } from "../../ui/page.tsx";
import { SettingToggle } from "../../ui/setting-toggle.tsx";
import { StripeCard } from "./stripe-card.tsx";
import { TestClockCard } from "./test-clock-card.tsx";
import "./payments.css";

export default function PaymentsSettingsPage() {
  const project = useCurrentProject();
  const payments = useConfig(project).payments;
  return (
    <Page title="Payments settings" description="Test mode, and the Stripe account your customers pay.">
      <Card title="Purchases">
        <SettingToggle
          configKey="payments.testMode"
          label="Test mode"
          hint="Purchases complete at once without payment, and the test clock can move this project's payments time ahead. Turn it off to take real payments through Stripe."
          checked={payments.testMode}
        />
        <SettingToggle
          configKey="payments.blockNewPurchases"
          label="Block new purchases"
          hint="Purchase links and grants are refused (NEW_PURCHASES_BLOCKED); what customers own stays theirs."
          checked={payments.blockNewPurchases}
        />
      </Card>
      <TestClockCard testMode={payments.testMode} />
      <StripeCard />
    </Page>
  );
}
