/**
 * A button that opens a menu (the user button, the team switcher).
 * Keyboard: Enter/Space/ArrowDown open it; arrows, Home and End move between
 * its items; Escape closes it (back to the button); Tab closes it and moves
 * on. A press outside closes it too.
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";

const ITEMS = '[role="menuitem"], [role="menuitemradio"]';

export function useMenu() {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const items = menuRef.current?.querySelectorAll<HTMLElement>(ITEMS);
    // The checked item first, as a listbox would.
    (menuRef.current?.querySelector<HTMLElement>('[aria-checked="true"]') ?? items?.[0])?.focus();
    const onPointer = (event: PointerEvent) => {
      if (!menuRef.current?.contains(event.target as Node) && !buttonRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener("pointerdown", onPointer);
    return () => document.removeEventListener("pointerdown", onPointer);
  }, [open]);

  const close = () => {
    setOpen(false);
    buttonRef.current?.focus();
  };

  const onMenuKey = (event: KeyboardEvent) => {
    const items = Array.from(menuRef.current?.querySelectorAll<HTMLElement>(ITEMS) ?? []);
    const index = items.indexOf(document.activeElement as HTMLElement);
    if (event.key === "Tab") {
      setOpen(false);
      return;
    }
    if (event.key === "Escape") close();
    else if (event.key === "ArrowDown") items[(index + 1) % items.length]?.focus();
    else if (event.key === "ArrowUp") items[(index - 1 + items.length) % items.length]?.focus();
    else if (event.key === "Home") items[0]?.focus();
    else if (event.key === "End") items[items.length - 1]?.focus();
    else return;
    event.preventDefault();
  };

  const buttonProps = {
    ref: buttonRef,
    type: "button" as const,
    "aria-haspopup": "menu" as const,
    "aria-expanded": open,
    "aria-controls": open ? menuId : undefined,
    onClick: () => setOpen((value) => !value),
    onKeyDown: (event: KeyboardEvent) => {
      if (event.key === "ArrowDown") {
        event.preventDefault();
        setOpen(true);
      }
    },
  };
  const menuProps = { ref: menuRef, id: menuId, role: "menu" as const, onKeyDown: onMenuKey };
  return { open, setOpen, close, buttonProps, menuProps };
}
