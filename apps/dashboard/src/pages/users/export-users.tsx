/**
 * Downloads the list's filtered set (every page, not only the shown one) as
 * CSV or JSON: the server streams it, and the file is handed to the browser
 * once the stream ends.
 */
import type { ExportUsersOptions, StackAdminApp } from "@latchkey/js";
import { useState } from "react";
import { useAction } from "../../lib/use-action.ts";
import { ActionStatus } from "../../ui/states.tsx";

type Format = ExportUsersOptions["format"];

async function download(stream: ReadableStream<Uint8Array>, format: Format): Promise<void> {
  const type = format === "csv" ? "text/csv" : "application/json";
  const blob = new Blob([await new Response(stream).arrayBuffer()], { type });
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = `users.${format}`;
  link.click();
  // The click has handed the file to the browser; the URL is not needed afterwards.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

export function ExportUsers({ app, filters }: { app: StackAdminApp; filters: Omit<ExportUsersOptions, "format"> }) {
  const [format, setFormat] = useState<Format>("csv");
  const run = useAction(async () => download(await app.exportUsers({ ...filters, format }), format));
  return (
    <div className="users-export">
      <label className="visually-hidden" htmlFor="users-export-format">
        Export format
      </label>
      <select id="users-export-format" className="input input-compact" value={format} onChange={(e) => setFormat(e.target.value as Format)}>
        <option value="csv">CSV</option>
        <option value="json">JSON</option>
      </select>
      <button type="button" className="button button-secondary" disabled={run.pending} onClick={() => void run.run()}>
        {run.pending ? "Exporting…" : "Export"}
      </button>
      <ActionStatus error={run.error} />
    </div>
  );
}
