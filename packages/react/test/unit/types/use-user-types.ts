/** Compiled (not run) by use-user-types.test.ts: useUser's result type follows the app's type. */
import type { CurrentServerUser, CurrentUser, Json, StackServerApp } from "@latchkey/js";
import { useUser } from "../../../src/index.ts";

export function ServerComponentLike(): Json {
  const me: CurrentServerUser = useUser<StackServerApp>({ or: "throw" });
  const maybe: CurrentServerUser | null = useUser<StackServerApp>();
  return [me.serverMetadata, me.lastActiveAt.getTime(), maybe?.serverMetadata ?? null];
}

export function ClientComponent(): string | null {
  const me: CurrentUser | null = useUser();
  // @ts-expect-error a client app's user has no server fields
  void me?.serverMetadata;
  return me?.displayName ?? null;
}
