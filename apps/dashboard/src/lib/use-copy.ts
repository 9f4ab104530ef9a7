/** Copying a text to the clipboard, and whether it worked. */
import { useState } from "react";

export function useCopy(text: string): { copy: () => Promise<void>; copied: "yes" | "failed" | null } {
  const [copied, setCopied] = useState<"yes" | "failed" | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied("yes");
    } catch {
      // Clipboard access needs a secure context or permission; the text stays selectable.
      setCopied("failed");
    }
  };
  return { copy, copied };
}
