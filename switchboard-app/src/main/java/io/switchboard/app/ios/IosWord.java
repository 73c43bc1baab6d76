package io.switchboard.app.ios;

/** One word of an IOS line and the column (1-based) where it starts, for error messages. */
record IosWord(String text, int column) {
}
