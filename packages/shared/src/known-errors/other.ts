import { defineKnownError } from "./base.ts";

export const DataVaultStoreDoesNotExist = defineKnownError("DATA_VAULT_STORE_DOES_NOT_EXIST", 400, (storeId: string) => ({
  message: `Data vault store ${JSON.stringify(storeId)} does not exist. Create it in the project's configuration first.`,
  details: { store_id: storeId },
}));

export const DataVaultStoreHashedKeyDoesNotExist = defineKnownError(
  "DATA_VAULT_STORE_HASHED_KEY_DOES_NOT_EXIST",
  400,
  (storeId: string, hashedKey: string) => ({
    message: `Data vault store ${JSON.stringify(storeId)} has no value for this key.`,
    details: { store_id: storeId, hashed_key: hashedKey },
  }),
);

export const WorkflowTokenDoesNotExist = defineKnownError("WORKFLOW_TOKEN_DOES_NOT_EXIST", 400, () => ({
  message: "The workflow token does not exist.",
}));

export const WorkflowTokenExpired = defineKnownError("WORKFLOW_TOKEN_EXPIRED", 400, () => ({
  message: "The workflow token has expired.",
}));

/** Latchkey's own: a workflow id the project does not have (GET/PATCH/DELETE /internal/workflows/{workflow_id}). */
export const WorkflowNotFound = defineKnownError("WORKFLOW_NOT_FOUND", 404, (workflowId: string) => ({
  message: `Workflow ${JSON.stringify(workflowId)} does not exist in this project.`,
  details: { workflow_id: workflowId },
}));

/** Sent when a request loops back into the server; the client retries it. */
export const InfiniteLoopDetected = defineKnownError("INFINITE_LOOP_DETECTED", 508, () => ({
  message: "An infinite loop was detected while handling this request. Try again.",
}));
