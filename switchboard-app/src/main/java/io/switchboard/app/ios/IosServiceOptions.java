package io.switchboard.app.ios;

import io.switchboard.director.spi.IosSlbOptions;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * The plug-in modules' {@link IosSlbOptions}, by the service whose options they import and export,
 * loaded once from {@code ServiceLoader}. The import, the YAML writer and the export ask it for a
 * service's options; a service without any has none to translate.
 */
final class IosServiceOptions {

    private static final Map<String, IosSlbOptions> BY_SERVICE = load();

    private IosServiceOptions() {
    }

    static Optional<IosSlbOptions> of(String service) {
        return Optional.ofNullable(BY_SERVICE.get(service));
    }

    private static Map<String, IosSlbOptions> load() {
        Map<String, IosSlbOptions> byService = new LinkedHashMap<>();
        for (IosSlbOptions options : ServiceLoader.load(IosSlbOptions.class, IosSlbOptions.class.getClassLoader())) {
            for (String service : options.services()) {
                if (byService.putIfAbsent(service, options) != null) {
                    throw new IllegalStateException(options.getClass().getName() + " registers the IOS options of"
                            + " service '" + service + "', which has them already");
                }
            }
        }
        return Map.copyOf(byService);
    }
}
