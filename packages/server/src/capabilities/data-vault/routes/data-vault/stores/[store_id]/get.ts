import { dataVaultEndpoints } from "@latchkey/shared";
import { defineRoute } from "../../../../../../http/route.ts";
import { getVaultValue } from "../../../../domain/values.ts";

export default [
  defineRoute(dataVaultEndpoints.getDataVaultValue, async ({ auth, params, body, services }) => {
    const ctx = { services, project: auth.project, branchId: auth.branchId };
    return { body: { encrypted_value: await getVaultValue(ctx, params.store_id, body.hashed_key) } };
  }),
];
