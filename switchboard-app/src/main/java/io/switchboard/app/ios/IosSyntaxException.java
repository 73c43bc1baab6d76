package io.switchboard.app.ios;

/**
 * An IOS configuration line the parser does not understand, or a value it cannot take. The message
 * is {@code line L, column C: what} and is meant for operators; there is no stack trace to show.
 */
public final class IosSyntaxException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int line;
    private final int column;

    public IosSyntaxException(int line, int column, String message) {
        super("line " + line + ", column " + column + ": " + message, null, false, false);
        this.line = line;
        this.column = column;
    }

    public int line() {
        return line;
    }

    public int column() {
        return column;
    }
}
