import { dataVaultEndpoints, SUCCESS } from "@latchkey/shared";
import { defineRoute } from "../../../../../../http/route.ts";
import { setVaultValue } from "../../../../domain/values.ts";

export default [
  defineRoute(dataVaultEndpoints.setDataVaultValue, async ({ auth, params, body, services }) => {
    const ctx = { services, project: auth.project, branchId: auth.branchId };
    await setVaultValue(ctx, params.store_id, body.hashed_key, body.encrypted_value);
    return { body: SUCCESS };
  }),
];
