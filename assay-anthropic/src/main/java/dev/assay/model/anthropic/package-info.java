/** Models behind Anthropic's Messages API, through the official {@code anthropic-java} SDK, with native tool use. */
package dev.assay.model.anthropic;
