# every oneinc¬¬¬¬¬¬z¬ST4
.: b


