/**
 * Targets: the model and agent interfaces an evaluation talks to ({@link dev.assay.target.ChatModel}) and the
 * request and response records they exchange.
 */
package dev.assay.target;
