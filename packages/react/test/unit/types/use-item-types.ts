/** Compiled (not run) with packages/react: useItem's type follows the user, team or app it reads through. */
import type { CurrentServerUser, CurrentUser, Item, ServerItem, ServerTeam, ServerUser, StackServerApp, Team } from "@latchkey/js";
import { useItem } from "../../../src/index.ts";

export function ClientItems({ user, team }: { user: CurrentUser; team: Team }): number[] {
  const own: Item = useItem(user, "credits");
  const seats = useItem(team, "seats");
  // @ts-expect-error a client's item does not change quantities
  void seats.increaseQuantity(1);
  const viaApp = useItem({ itemId: "credits", userId: user.id });
  // @ts-expect-error nor does an item read through a client app
  void viaApp.tryDecreaseQuantity(1);
  // @ts-expect-error a customer is one of userId, teamId or customCustomerId
  useItem({ itemId: "credits" });
  return [own.quantity, seats.nonNegativeQuantity, viaApp.quantity];
}

export function ServerItems({ user, other, team }: { user: CurrentServerUser; other: ServerUser; team: ServerTeam }): Promise<unknown>[] {
  const own: ServerItem = useItem(user, "credits");
  const theirs: ServerItem = useItem(other, "credits");
  const seats: ServerItem = useItem(team, "seats");
  const custom: ServerItem = useItem<StackServerApp>({ itemId: "tokens", customCustomerId: "org-1" });
  return [own.increaseQuantity(1), theirs.decreaseQuantity(1), seats.tryDecreaseQuantity(1), custom.increaseQuantity(2)];
}
