package io.switchboard.app.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.switchboard.director.config.bind.Secrets;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class RedactedYamlTest {

    @BeforeAll
    static void secretKeys() {
        Secrets.declare("secret");
        Secrets.declare("token");
    }

    @Test
    void everyStyleOfSecretIsMaskedAndTheRestKeptAsWritten() {
        String yaml = """
                # the admin token
                admin: { listen: 127.0.0.1:8080, token: "t0k,en" }
                virtual-servers:
                  aaa:
                    clients:
                      - { subnet: 10.0.0.0/8, secret: plain-one }   # flow
                      - subnet: 10.1.0.0/16
                        secret: 'single ''quoted'''
                      - subnet: 10.2.0.0/16
                        secret: { file: /etc/switchboard/nas.secret }
                      - subnet: 10.3.0.0/16
                        secret: >
                          folded
                          over lines
                    name: secret
                """;

        String shown = RedactedYaml.of(yaml);

        assertThat(shown).doesNotContain("t0k,en", "plain-one", "quoted", "folded", "over lines")
                .contains("# the admin token", "token: \"***\" }", "secret: \"***\" }   # flow",
                        "secret: { file: /etc/switchboard/nas.secret }", "name: secret");
        assertThat(shown.lines().count()).isLessThanOrEqualTo(yaml.lines().count());
    }

    @Test
    void aDocumentThatDoesNotParseIsNotShown() {
        assertThat(RedactedYaml.of("secret: [unclosed")).doesNotContain("unclosed");
    }
}
