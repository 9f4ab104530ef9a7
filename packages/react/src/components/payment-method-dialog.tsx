/**
 * Billing's "Update payment method": a dialog with Stripe's Payment Element
 * in setup mode. Opening it asks the server for a SetupIntent (and how to
 * load Stripe.js for the project's account); Save confirms the SetupIntent
 * with Stripe in the page (the card never reaches the server), then makes the
 * card it saved the customer's default. Cancel (or Escape) closes it and
 * changes nothing the customer is charged with. For a user or a team alike.
 */
import type { CustomerDefaultPaymentMethod, CustomerPaymentMethodSetupIntent } from "@latchkey/js";
import { Elements, PaymentElement, useElements, useStripe } from "@stripe/react-stripe-js";
import { useEffect, useId, useRef, useState } from "react";
import { Alert, errorText, submitTo, useAction } from "./parts.tsx";
import { useStripeJs } from "./stripe-js.ts";

/** Whose card is saved: the signed-in user, or a team (SDK objects of both have these). */
export interface PaymentMethodOwner {
  createPaymentMethodSetupIntent(): Promise<CustomerPaymentMethodSetupIntent>;
  setDefaultPaymentMethodFromSetupIntent(setupIntentId: string): Promise<CustomerDefaultPaymentMethod | null>;
}

export interface PaymentMethodDialogProps {
  owner: PaymentMethodOwner;
  /** The card is saved and is now the default (the dialog is for the caller to close). */
  onSaved(): void;
  onClose(): void;
}

export function PaymentMethodDialog({ owner, onSaved, onClose }: PaymentMethodDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const intent = useSetupIntent(owner);
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
  }, []);
  return (
    <dialog
      ref={dialog}
      className="lk-dialog"
      aria-labelledby={titleId}
      onCancel={(event) => {
        // Escape: closed by React (unmounting), as Cancel closes it.
        event.preventDefault();
        onClose();
      }}
    >
      <h3 id={titleId}>Update payment method</h3>
      <DialogBody intent={intent} owner={owner} onSaved={onSaved} onClose={onClose} />
    </dialog>
  );
}

type IntentState = { value: CustomerPaymentMethodSetupIntent | null; error: string | null };

/** One SetupIntent per opening of the dialog: a declined card is tried again on the same one. */
function useSetupIntent(owner: PaymentMethodOwner): IntentState {
  const [state, setState] = useState<IntentState>({ value: null, error: null });
  useEffect(() => {
    let current = true;
    owner.createPaymentMethodSetupIntent().then(
      (value) => current && setState({ value, error: null }),
      (error: unknown) => current && setState({ value: null, error: errorText(error) }),
    );
    return () => {
      current = false;
    };
  }, [owner]);
  return state;
}

function CancelOnly({ onClose }: { onClose(): void }) {
  return (
    <div className="lk-row">
      <button className="lk-button lk-button-secondary" type="button" onClick={onClose}>
        Cancel
      </button>
    </div>
  );
}

function DialogBody({ intent, owner, onSaved, onClose }: { intent: IntentState } & PaymentMethodDialogProps) {
  const stripe = useStripeJs(intent.value?.cardForm ?? null);
  if (intent.error || !intent.value) {
    return (
      <>
        {intent.error ? <Alert>{intent.error}</Alert> : <p className="lk-muted">Loading the card form…</p>}
        <CancelOnly onClose={onClose} />
      </>
    );
  }
  if (!stripe) {
    return (
      <>
        <p className="lk-muted" role="note">
          Payment by card is not set up for this project: a card cannot be saved here.
        </p>
        <CancelOnly onClose={onClose} />
      </>
    );
  }
  return (
    <Elements stripe={stripe} options={{ clientSecret: intent.value.clientSecret }}>
      <SetupForm owner={owner} onSaved={onSaved} onClose={onClose} />
    </Elements>
  );
}

function SetupForm({ owner, onSaved, onClose }: PaymentMethodDialogProps) {
  const stripe = useStripe();
  const elements = useElements();
  const [ready, setReady] = useState(false);
  // Once Stripe saved the card, trying again (the server failed to make it the default) only retries that.
  const succeeded = useRef<string | null>(null);
  const save = useAction(async () => {
    if (!stripe || !elements) return;
    if (!succeeded.current) {
      const confirmed = await stripe.confirmSetup({
        elements,
        // Only a card that needs the bank's page leaves this one; it comes back to the settings.
        confirmParams: { return_url: window.location.href },
        redirect: "if_required",
      });
      if (confirmed.error) return confirmed.error.message ?? "The card could not be saved.";
      succeeded.current = confirmed.setupIntent.id;
    }
    await owner.setDefaultPaymentMethodFromSetupIntent(succeeded.current);
    onSaved();
  });
  return (
    <form className="lk-form" onSubmit={submitTo(save.run)}>
      <PaymentElement onReady={() => setReady(true)} />
      <Alert>{save.error}</Alert>
      <div className="lk-row">
        <button type="submit" className="lk-button" disabled={!ready || !stripe || !elements || save.busy}>
          Save card
        </button>
        <button className="lk-button lk-button-secondary" type="button" onClick={onClose}>
          Cancel
        </button>
      </div>
    </form>
  );
}
