/**
 * Images: profile pictures and logos written as `data:` URLs are stored by
 * the server (domain/host.ts) and served from /images/… (routes/), named by
 * their content's hash. The store is PostgreSQL (domain/postgres-store.ts)
 * behind an interface another store can implement (domain/image-store.ts).
 *
 * Outside this folder: what a `data:` URL must hold, and the wire schema, are
 * in @latchkey/shared (image-data-url.ts, api/images.ts); the user, team and
 * project writes call hostImages; the table's migration is in db/migrations/.
 */
import { imagesEndpoints } from "@latchkey/shared";
import { defineCapability } from "../define.ts";
import { storedImages } from "./schema.ts";

export default defineCapability({
  name: "images",
  contract: imagesEndpoints,
  tables: [storedImages],
  events: { subscribes: [] },
  configKeys: [],
  // Nothing to sweep yet: an image is small and kept while its project lives.
  housekeeping: [],
  jobs: [],
});
