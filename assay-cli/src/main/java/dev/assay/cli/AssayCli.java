package dev.assay.cli; public final class AssayCli { public static void main(String[] a){} }
