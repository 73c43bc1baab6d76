package io.switchboard.app.config;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.switchboard.director.config.bind.Secrets;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A configuration document as it may be shown ({@code GET /api/v1/config}): every secret written in it
 * ({@link Secrets#keyNames}: {@code secret}, {@code token}, ...) replaced by {@value #MASK}, the rest
 * exactly as written, comments and layout included. A {@code { file: }} or {@code { env: }} source
 * is shown, since it names where the secret is, not what it is. The values are found with the YAML
 * parser's own token positions, so quoting, flow and block styles and multi-line scalars are all
 * covered.
 */
public final class RedactedYaml {

    static final String MASK = "\"***\"";

    private static final YAMLFactory YAML = YAMLFactory.builder().build();

    private RedactedYaml() {
    }

    /** {@code yaml} with its secrets masked; a document that does not parse is not shown at all. */
    public static String of(String yaml) {
        Set<String> names = Secrets.keyNames();
        List<int[]> spans = new ArrayList<>();
        try (JsonParser parser = YAML.createParser(yaml)) {
            for (JsonToken t = parser.nextToken(); t != null; t = parser.nextToken()) {
                // A secret's value is a scalar right under a secret's key (not a { file: } mapping's).
                if (t.isScalarValue() && parser.getParsingContext().inObject()
                        && names.contains(parser.currentName())) {
                    int start = (int) parser.currentTokenLocation().getCharOffset();
                    int end = (int) parser.currentLocation().getCharOffset();
                    if (start >= 0 && end > start && end <= yaml.length()) {
                        spans.add(new int[] {start, end});
                    }
                }
            }
        } catch (IOException e) {
            return "# (not shown: the document does not parse)\n";
        }
        StringBuilder out = new StringBuilder(yaml);
        for (int i = spans.size() - 1; i >= 0; i--) {
            out.replace(spans.get(i)[0], spans.get(i)[1], MASK);
        }
        return out.toString();
    }
}
