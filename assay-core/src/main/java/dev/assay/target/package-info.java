/**
 * Systems under test: the Target plug-in interface, chat models behind their APIs, and Assay's own agent loop
 * that drives a model with workspace tools.
 */
package dev.assay.target;
