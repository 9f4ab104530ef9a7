/**
 * What "@react-email/components" offers inside the sandbox: every component
 * package it re-exports except @react-email/render (rendering is the host's
 * job, and it would pull in prettier).
 */
export * from "@react-email/body";
export * from "@react-email/button";
export * from "@react-email/code-block";
export * from "@react-email/code-inline";
export * from "@react-email/column";
export * from "@react-email/container";
export * from "@react-email/font";
export * from "@react-email/head";
export * from "@react-email/heading";
export * from "@react-email/hr";
export * from "@react-email/html";
export * from "@react-email/img";
export * from "@react-email/link";
export * from "@react-email/markdown";
export * from "@react-email/preview";
export * from "@react-email/row";
export * from "@react-email/section";
export * from "@react-email/tailwind";
export * from "@react-email/text";
